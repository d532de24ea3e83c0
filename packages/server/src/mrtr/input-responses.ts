/**
 * Validated input responses, in both eras: what a handler asked in a round (kept as
 * {@link AskedInput}s: sealed in the modern `requestState`, in memory on legacy sessions) checks
 * the answers of the next one. An answer must be the result of the method asked, and an
 * accepted form elicitation's `content` must fit the `requestedSchema` that was sent, so a
 * client cannot hand a handler `{ ok: "yes" }` for a boolean.
 */
import {
  ErrorCode,
  getWire,
  type InputRequest,
  ProtocolError,
  type ProtocolVersion,
  parseResult,
} from '@twofold/protocol/experimental';
import type { InputResponse } from '../api';
import { compileJsonSchema } from '../schema/json-schema';

/**
 * What is kept of one input request to check its answer: the method, and for a form
 * elicitation the schema its `content` must fit.
 */
export interface AskedInput {
  method: InputRequest['method'];
  requestedSchema?: Record<string, unknown>;
}

/** The input requests of a round, reduced to what checking their answers needs. */
export function askedOf(
  inputRequests: Readonly<Record<string, InputRequest>>,
): Record<string, AskedInput> {
  const asked: Record<string, AskedInput> = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    const schema = request.params?.requestedSchema;
    const form = request.method === 'elicitation/create' && request.params?.mode !== 'url';
    asked[key] =
      form && typeof schema === 'object' && schema !== null
        ? { method: request.method, requestedSchema: schema as Record<string, unknown> }
        : { method: request.method };
  }
  return asked;
}

/**
 * An input response that does not fit what was asked. It is a `ProtocolError` (-32602, invalid
 * params, as the official SDKs answer an elicitation that does not match its schema): thrown
 * from a handler, it answers the request with `data.reason` `"invalid-input-response"`, the
 * `key` and the `issues`.
 *
 * @experimental
 */
export class InputResponseError extends ProtocolError {
  override readonly name: string = 'InputResponseError';
  constructor(
    readonly key: string,
    readonly issues: readonly string[],
  ) {
    super(
      ErrorCode.InvalidParams,
      `Input response ${JSON.stringify(key)} does not fit what was asked: ${issues[0] ?? ''}`,
      { reason: 'invalid-input-response', key, issues },
    );
  }
}

type Validate = (content: unknown) => { ok: true } | { ok: false; issues: string[] };

/**
 * The `context.inputResponse` of one attempt: the answer under `key`, checked against what the
 * previous round asked under it; `undefined` when nothing was asked under `key` or the client
 * sent no answer for it (an unverifiable answer is no answer).
 */
export function inputResponseReader(
  version: ProtocolVersion,
  responses: Readonly<Record<string, unknown>> | undefined,
  asked: Readonly<Record<string, AskedInput>> | undefined,
): (key: string) => InputResponse | undefined {
  // Compiled on first use only: handlers that never call the reader pay nothing.
  let validators: Map<string, Validate> | undefined;
  return (key) => {
    const request = asked === undefined || !Object.hasOwn(asked, key) ? undefined : asked[key];
    const answer =
      responses === undefined || !Object.hasOwn(responses, key) ? undefined : responses[key];
    if (request === undefined || answer === undefined) return undefined;
    const value = checkShape(version, key, request.method, answer);
    if (request.requestedSchema !== undefined && value.action === 'accept') {
      validators ??= new Map();
      let validate = validators.get(key);
      if (validate === undefined) {
        validate = compileJsonSchema(request.requestedSchema, `requestedSchema of ${key}`)
          .validate as Validate;
        validators.set(key, validate);
      }
      const checked = validate(value.content ?? {});
      if (!checked.ok) throw new InputResponseError(key, checked.issues);
    }
    return value as InputResponse;
  };
}

/** The answer as the result of `method` in `version`: an error when it is not one. */
function checkShape(
  version: ProtocolVersion,
  key: string,
  method: AskedInput['method'],
  answer: unknown,
): Record<string, unknown> {
  const wire = getWire(version);
  const known = (wire.methods.get(method) ?? wire.inputRequests.get(method))?.result;
  if (known === undefined) {
    // A revision without this kind of input; the capability check never lets it be asked.
    throw new InputResponseError(key, [`${method} is not part of protocol ${version}`]);
  }
  const parsed = parseResult(wire, method, answer);
  if (parsed.ok) return parsed.value;
  const issues = (parsed.error.details?.issues as { message: string }[] | undefined) ?? [];
  throw new InputResponseError(
    key,
    issues.length > 0 ? issues.map((issue) => issue.message) : [parsed.error.message],
  );
}
