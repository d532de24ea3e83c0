/**
 * Running a host tool on behalf of a host format: resolving the tool source, a signal that never
 * aborts when the format gives none, and input-required outcomes turned into a typed error.
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import type {
  HostTool,
  InputRequiredOutcome,
  InvokeContext,
  ToolRegistry,
} from '../../registry/types';
import { ToolInputRequiredError } from './errors';

/**
 * Tools to convert: a registry (its `list()`, in its order) or any iterable of tools.
 *
 * @experimental
 */
export type ToolSource = ToolRegistry | Iterable<HostTool>;

/** The tools of `source`, in its order. */
export function toolsOf(source: ToolSource): HostTool[] {
  if (Symbol.iterator in source) return [...(source as Iterable<HostTool>)];
  return (source as ToolRegistry).list();
}

const NEVER = new AbortController().signal;

/**
 * What an adapter passes on to every `invoke` besides the format's own signal.
 *
 * @experimental
 */
export interface AdapterInvokeOptions {
  /** Answers input requests (elicitation, sampling, roots) during calls. */
  resolver?: InvokeContext['resolver'];
  /** Progress of running tools. */
  onProgress?: (
    tool: string,
    progress: Parameters<NonNullable<InvokeContext['onProgress']>>[0],
  ) => void;
}

/**
 * Invokes `tool` and settles with its result; an input-required outcome (no resolver answered)
 * throws `ToolInputRequiredError`. Rejections of `invoke` pass through.
 */
export async function runHostTool(
  tool: HostTool,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  options: AdapterInvokeOptions & { resume?: InvokeContext['resume'] } = {},
): Promise<CallToolResult> {
  const context: InvokeContext = { signal: signal ?? NEVER };
  if (options.resolver) context.resolver = options.resolver;
  if (options.resume) context.resume = options.resume;
  const onProgress = options.onProgress;
  if (onProgress) context.onProgress = (progress) => onProgress(tool.name, progress);
  const outcome = await tool.invoke(args, context);
  if (outcome.resultType === 'input_required') {
    throw new ToolInputRequiredError(tool.name, args, outcome as InputRequiredOutcome);
  }
  return outcome as CallToolResult;
}

/** Whether a failure is the caller's own abort (rethrown as is, not turned into a result). */
export function isAbortOf(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/** Arguments as an object: `undefined`/`null` become `{}`; anything else not an object fails. */
export function argsObject(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`tool arguments must be a JSON object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}
