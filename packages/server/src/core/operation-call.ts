/**
 * The feature methods both eras share, mapped onto the era-neutral `Operations`. Each era's
 * dispatcher validates the params first and adapts the outcome to its wire afterwards.
 */
import {
  type CompleteRequestParams,
  type ServerCapabilities,
  shallowCopy,
} from '@twofold/protocol/experimental';
import { type CachePolicy, InputRequired, type RequestContext } from '../api';
import type { Operations } from '../operations/types';

/** What an operation produced: a result (with its modern cache hints, if cacheable) or a need for input. */
export type OperationOutcome =
  | { kind: 'result'; result: Record<string, unknown>; cache?: CachePolicy | undefined }
  | { kind: 'input'; input: InputRequired };

/** The server capability each feature method needs (-32601 when it is not advertised). */
const CAPABILITY_OF: Readonly<Record<string, keyof ServerCapabilities>> = {
  'tools/list': 'tools',
  'tools/call': 'tools',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'completion/complete': 'completions',
};

/** Whether `method` is a feature method served through `Operations`. */
export function isOperationMethod(method: string): boolean {
  return Object.hasOwn(CAPABILITY_OF, method);
}

/** Whether the server advertises the capability `method` needs (true for methods needing none). */
export function isAdvertised(method: string, capabilities: ServerCapabilities): boolean {
  const capability = CAPABILITY_OF[method];
  return capability === undefined || capabilities[capability] !== undefined;
}

/** Runs a validated feature request. */
export async function callOperation(
  operations: Operations,
  method: string,
  params: Record<string, unknown> | undefined,
  context: RequestContext,
): Promise<OperationOutcome> {
  const p = params ?? {};
  const cursor = typeof p.cursor === 'string' ? p.cursor : undefined;
  switch (method) {
    case 'tools/list':
      return listed(operations.listTools(cursor));
    case 'prompts/list':
      return listed(operations.listPrompts(cursor));
    case 'resources/list':
      return listed(operations.listResources(cursor));
    case 'resources/templates/list':
      return listed(operations.listResourceTemplates(cursor));
    case 'tools/call':
      return produced(
        await settle(() =>
          operations.callTool(
            p.name as string,
            p.arguments as Record<string, unknown> | undefined,
            context,
          ),
        ),
      );
    case 'prompts/get':
      return produced(
        await settle(() =>
          operations.getPrompt(
            p.name as string,
            p.arguments as Record<string, string> | undefined,
            context,
          ),
        ),
      );
    case 'resources/read': {
      const read = await settle(() => operations.readResource(p.uri as string, context));
      return read instanceof InputRequired ? produced(read) : listed(read);
    }
    case 'completion/complete':
      return produced(await operations.complete(p as unknown as CompleteRequestParams, context));
    default:
      throw new RangeError(`callOperation: ${method} is not a feature method`);
  }
}

/** A thrown `InputRequired` is the same as a returned one. */
function settle<T>(run: () => Promise<T>): Promise<T | InputRequired> {
  let running: Promise<T>;
  try {
    // Resolving a native promise gives it back: a plain value from a custom operation works too.
    running = Promise.resolve(run());
  } catch (error) {
    running = Promise.reject(error);
  }
  return running.catch(inputOrRethrow);
}

function inputOrRethrow(error: unknown): InputRequired {
  if (error instanceof InputRequired) return error;
  throw error;
}

function produced(value: object): OperationOutcome {
  if (value instanceof InputRequired) return { kind: 'input', input: value };
  return { kind: 'result', result: shallowCopy(value as Record<string, unknown>) };
}

function listed<T extends { cache: CachePolicy }>(value: T): OperationOutcome {
  const { cache, ...result } = value;
  return { kind: 'result', result, cache };
}
