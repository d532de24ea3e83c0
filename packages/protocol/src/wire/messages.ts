/** Schemas of whole JSON-RPC messages, built from a method name and its params or result. */
import { z } from 'zod';
import { META_KEYS } from '../meta-keys';
import { ClientCapabilities } from './capabilities';
import type { WireFeatures } from './features';
import {
  ErrorObject,
  Implementation,
  LoggingLevel,
  MetaObject,
  ProgressToken,
  RequestId,
} from './primitives';

export const JsonRpcVersion = z.literal('2.0');

/** The `_meta` every modern request must carry. */
export const RequestMetaObject = z.looseObject({
  [META_KEYS.protocolVersion]: z.string(),
  [META_KEYS.clientCapabilities]: ClientCapabilities,
  [META_KEYS.clientInfo]: Implementation.optional(),
  [META_KEYS.logLevel]: LoggingLevel.optional(),
  progressToken: ProgressToken.optional(),
});
export const ResultMetaObject = z.looseObject({
  [META_KEYS.serverInfo]: Implementation.optional(),
});
export const NotificationMetaObject = z.looseObject({
  [META_KEYS.subscriptionId]: RequestId.optional(),
});
const LegacyRequestMeta = z.looseObject({ progressToken: ProgressToken.optional() });

type Shape = Record<string, z.ZodType>;

/**
 * Request params for a revision: modern params always exist and carry the required `_meta`;
 * legacy params may be omitted entirely when none of their fields is required.
 */
export function requestParams(f: WireFeatures, shape: Shape, legacyOptional: boolean) {
  if (f.modern) return z.looseObject({ ...shape, _meta: RequestMetaObject });
  const params = z.looseObject({ ...shape, _meta: LegacyRequestMeta.optional() });
  return legacyOptional ? params.optional() : params;
}

export function notificationParams(f: WireFeatures, shape: Shape, optional: boolean) {
  const params = z.looseObject({
    ...shape,
    _meta: (f.modern ? NotificationMetaObject : MetaObject).optional(),
  });
  return optional ? params.optional() : params;
}

/** A complete result: modern results carry `resultType` and the result `_meta`. */
export function result(f: WireFeatures, shape: Shape) {
  return f.modern
    ? z.looseObject({
        ...shape,
        resultType: z.literal('complete'),
        _meta: ResultMetaObject.optional(),
      })
    : z.looseObject({ ...shape, _meta: MetaObject.optional() });
}

export const CacheScope = z.enum(['public', 'private']);
/**
 * The cache hints of cacheable modern results. Servers must send them (twofold's server always
 * does), but a receiver must read a missing hint as "stale at once" rather than reject the
 * result, so they are optional here; a present one must still be well-formed.
 */
export const cacheHints = {
  ttlMs: z.number().int().min(0).optional(),
  cacheScope: CacheScope.optional(),
};

export function requestMessage(method: string, params: z.ZodType) {
  return z.looseObject({
    jsonrpc: JsonRpcVersion,
    id: RequestId,
    method: z.literal(method),
    params,
  });
}
export function notificationMessage(method: string, params: z.ZodType) {
  return z.looseObject({ jsonrpc: JsonRpcVersion, method: z.literal(method), params });
}
export function resultResponse(resultSchema: z.ZodType) {
  return z.looseObject({ jsonrpc: JsonRpcVersion, id: RequestId, result: resultSchema });
}
/**
 * An error response. `id` is accepted absent or null in every revision: JSON-RPC peers send
 * null after a parse error, and 2025-11-25 onwards omit it.
 */
export function errorResponse(error: z.ZodType = ErrorObject) {
  return z.looseObject({ jsonrpc: JsonRpcVersion, id: RequestId.nullable().optional(), error });
}
/** A bare error object with a fixed code. */
export function errorWithCode(code: number, data?: z.ZodType) {
  return ErrorObject.extend({ code: z.literal(code), ...(data ? { data } : {}) });
}
