/**
 * The per-revision registry: which methods a revision has, and the schemas of their params and
 * results. Each revision's schemas are built on first use and then reused for the process.
 */
import type { z } from 'zod';
import { ErrorCode, LocalError, LocalErrorCode, ProtocolError } from './errors';
import type { ProtocolVersion } from './versions';
import {
  FEATURES_2024_11_05,
  FEATURES_2025_06_18,
  FEATURES_2025_11_25,
  FEATURES_2026_07_28,
  type WireFeatures,
} from './wire/features';
import type { MethodSchema } from './wire/method-spec';
import { buildWire, type Wire } from './wire/revision';

export type { WireFeatures } from './wire/features';
export type { MethodSchema, Sender } from './wire/method-spec';
export type { Wire } from './wire/revision';

const FEATURES: Readonly<Record<ProtocolVersion, WireFeatures>> = {
  '2026-07-28': FEATURES_2026_07_28,
  '2025-11-25': FEATURES_2025_11_25,
  '2025-06-18': FEATURES_2025_06_18,
  '2024-11-05': FEATURES_2024_11_05,
};
const built = new Map<ProtocolVersion, Wire>();

/**
 * The schemas of one revision (built once, on first use).
 *
 * @experimental
 */
export function getWire(version: ProtocolVersion): Wire {
  let wire = built.get(version);
  if (!wire) {
    const features = FEATURES[version];
    if (!features)
      throw new RangeError(`getWire: unsupported protocol version ${JSON.stringify(version)}`);
    wire = buildWire(version, features);
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
export function summarize(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.');
    return { path, message: path ? `${path}: ${issue.message}` : issue.message };
  });
}
