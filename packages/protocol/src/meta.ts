/** The `_meta` envelope of 2026-07-28: key constants, builders and readers. */

import { LOGGING_LEVELS, META_KEYS } from './meta-keys';
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ProgressToken,
  RequestId,
} from './types';
import { isRecord, shallowCopy } from './util';

export { LOGGING_LEVELS, META_KEYS };

/**
 * W3C trace context carried in `_meta` (and mirrored by transports).
 *
 * @experimental
 */
export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

/**
 * What a modern request states about itself.
 *
 * @experimental
 */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
  progressToken?: ProgressToken;
  trace?: TraceContext;
}

/**
 * Builds the `_meta` object of a modern request.
 *
 * @experimental
 */
export function buildRequestMeta(envelope: RequestEnvelope): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [META_KEYS.protocolVersion]: envelope.protocolVersion,
    [META_KEYS.clientCapabilities]: envelope.clientCapabilities,
  };
  if (envelope.clientInfo) meta[META_KEYS.clientInfo] = envelope.clientInfo;
  if (envelope.logLevel) meta[META_KEYS.logLevel] = envelope.logLevel;
  if (envelope.progressToken !== undefined) meta[META_KEYS.progressToken] = envelope.progressToken;
  Object.assign(meta, traceEntries(envelope.trace));
  return meta;
}

/**
 * Reads the envelope of a modern request's params. Returns the names of the required keys that
 * are missing instead when the request is malformed (answer -32602).
 *
 * @experimental
 */
export function readRequestEnvelope(
  params: unknown,
): { ok: true; envelope: RequestEnvelope } | { ok: false; missing: string[] } {
  const meta = metaOf(params);
  const version = meta?.[META_KEYS.protocolVersion];
  const caps = meta?.[META_KEYS.clientCapabilities];
  const missing: string[] = [];
  if (typeof version !== 'string') missing.push(META_KEYS.protocolVersion);
  if (!isRecord(caps)) missing.push(META_KEYS.clientCapabilities);
  if (!meta || missing.length > 0) return { ok: false, missing };
  const envelope: RequestEnvelope = {
    protocolVersion: version as string,
    clientCapabilities: caps as ClientCapabilities,
  };
  const info = meta[META_KEYS.clientInfo];
  if (isRecord(info)) envelope.clientInfo = info as Implementation;
  const level = meta[META_KEYS.logLevel];
  if (typeof level === 'string') envelope.logLevel = level as LoggingLevel;
  const token = meta[META_KEYS.progressToken];
  if (typeof token === 'string' || typeof token === 'number') envelope.progressToken = token;
  const trace = readTraceContext(meta);
  if (trace) envelope.trace = trace;
  return { ok: true, envelope };
}

/**
 * The protocol version a request names in its `_meta`, if any (the era probe of §4.3).
 *
 * @experimental
 */
export function protocolVersionOf(params: unknown): string | undefined {
  const version = metaOf(params)?.[META_KEYS.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/**
 * Adds `serverInfo` to a result's `_meta`, keeping what is there.
 *
 * @experimental
 */
export function withServerInfo<T extends Record<string, unknown>>(
  result: T,
  serverInfo: Implementation,
): T {
  const meta: Record<string, unknown> = isRecord(result._meta) ? shallowCopy(result._meta) : {};
  meta[META_KEYS.serverInfo] = serverInfo;
  const complete: Record<string, unknown> = shallowCopy(result);
  complete._meta = meta;
  return complete as T;
}

/**
 * The subscription a listen-stream message belongs to, if it is tagged.
 *
 * @experimental
 */
export function subscriptionIdOf(params: unknown): RequestId | undefined {
  const id = metaOf(params)?.[META_KEYS.subscriptionId];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

// traceparent: version-traceid-parentid-flags, lowercase hex; all-zero ids are invalid.
const TRACEPARENT = /^[\da-f]{2}-(?!0{32})([\da-f]{32})-(?!0{16})([\da-f]{16})-([\da-f]{2})$/;

/**
 * The fields of a W3C `traceparent`.
 *
 * @experimental
 */
export interface TraceParent {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** Bit 0 is `sampled`. */
  traceFlags: number;
}

/**
 * Reads a `traceparent` value (from `_meta` or the HTTP header); `undefined` when malformed.
 *
 * @experimental
 */
export function parseTraceparent(traceparent: string): TraceParent | undefined {
  const match = TRACEPARENT.exec(traceparent);
  if (match === null) return undefined;
  const [, traceId = '', spanId = '', flags = ''] = match;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/**
 * Writes a version-`00` `traceparent`.
 *
 * @experimental
 */
export function formatTraceparent(parent: TraceParent): string {
  const flags = (parent.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${parent.traceId}-${parent.spanId}-${flags}`;
}

/**
 * Reads W3C trace context from `_meta`; a malformed `traceparent` drops the whole context.
 *
 * @experimental
 */
export function readTraceContext(meta: unknown): TraceContext | undefined {
  if (!isRecord(meta)) return undefined;
  const { traceparent, tracestate, baggage } = meta;
  if (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent)) return undefined;
  const trace: TraceContext = { traceparent };
  if (typeof tracestate === 'string') trace.tracestate = tracestate;
  if (typeof baggage === 'string') trace.baggage = baggage;
  return trace;
}

function traceEntries(trace: TraceContext | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!trace?.traceparent || !TRACEPARENT.test(trace.traceparent)) return out;
  out[META_KEYS.traceparent] = trace.traceparent;
  if (trace.tracestate) out[META_KEYS.tracestate] = trace.tracestate;
  if (trace.baggage) out[META_KEYS.baggage] = trace.baggage;
  return out;
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (!isRecord(params)) return undefined;
  const meta = params._meta;
  return isRecord(meta) ? meta : undefined;
}
