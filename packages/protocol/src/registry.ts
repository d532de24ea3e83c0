/**
 * The per-revision registry: which methods a revision has, and the schemas of their params and
 * results. Each revision's schemas are built on first use and then reused for the process.
 */
import { compiledWire, type MethodSchema, type Wire } from './compiled/wire';
import { ErrorCode, LocalError, LocalErrorCode, ProtocolError } from './errors';
import type { ProtocolVersion } from './versions';
import { FEATURES_BY_VERSION } from './wire/features';

export type { SafeParseResult, Validator, WireIssue } from './compiled/validator';
export type { MethodSchema, Wire } from './compiled/wire';
export type { WireFeatures } from './wire/features';
export type { Sender } from './wire/wire-types';

const built = new Map<ProtocolVersion, Wire>();

/**
 * The schemas of one revision (built once, on first use).
 *
 * @experimental
 */
export function getWire(version: ProtocolVersion): Wire {
  let wire = built.get(version);
  if (!wire) {
    if (!Object.hasOwn(FEATURES_BY_VERSION, version))
      throw new RangeError(`getWire: unsupported protocol version ${JSON.stringify(version)}`);
    wire = compiledWire(version);
    built.set(version, wire);
  }
  return wire;
}

/**
 * A method of a revision, or `undefined` when the revision does not have it.
 *
 * @experimental
 */
export function findMethod(version: ProtocolVersion, method: string): MethodSchema | undefined {
  return getWire(version).methods.get(method);
}

/**
 * The outcome of a validation: the parsed value, or a typed error.
 *
 * @experimental
 */
export type Parsed<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** How many validation issues an error message and its data carry at most. */
const MAX_ISSUES = 10;

/**
 * Validates the params of an inbound request or notification against its revision: -32601
 * when the revision has no such method, -32602 when the params do not fit. The returned value
 * is the parsed params (unknown keys kept).
 *
 * @experimental
 */
export function parseParams(
  wire: Wire,
  method: string,
  params: unknown,
): Parsed<Record<string, unknown> | undefined, ProtocolError> {
  const spec = wire.methods.get(method);
  if (!spec) {
    return {
      ok: false,
      error: new ProtocolError(
        ErrorCode.MethodNotFound,
        `Method not found: ${method} (protocol ${wire.version})`,
      ),
    };
  }
  const parsed = spec.params.safeParse(params);
  if (parsed.success)
    return { ok: true, value: parsed.data as Record<string, unknown> | undefined };
  const issues = summarize(parsed.error);
  return {
    ok: false,
    error: new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid params for ${method}: ${issues[0]?.message ?? ''}`,
      {
        issues,
      },
    ),
  };
}

/**
 * Validates a result received for `method`. A result that does not fit is a local error
 * (`INVALID_RESULT`): the peer answered, but not with something this revision allows.
 *
 * @experimental
 */
export function parseResult(
  wire: Wire,
  method: string,
  result: unknown,
): Parsed<Record<string, unknown>, LocalError> {
  const spec = wire.methods.get(method) ?? wire.inputRequests.get(method);
  if (!spec?.result) {
    return {
      ok: false,
      error: new LocalError(
        LocalErrorCode.InvalidResult,
        `No result schema for ${method} in ${wire.version}`,
      ),
    };
  }
  const parsed = spec.result.safeParse(result);
  if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
  const issues = summarize(parsed.error);
  return {
    ok: false,
    error: new LocalError(
      LocalErrorCode.InvalidResult,
      `Invalid ${method} result: ${issues[0]?.message ?? ''}`,
      {
        details: { issues },
      },
    ),
  };
}

/**
 * Validation issues as `path: message` pairs, at most `MAX_ISSUES`.
 *
 * @experimental
 */
export function summarize(error: {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
}): { path: string; message: string }[] {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.');
    return { path, message: path ? `${path}: ${issue.message}` : issue.message };
  });
}
