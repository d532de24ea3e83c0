/**
 * Request metadata headers of the Streamable HTTP transport (2026-07-28): the header names, the
 * `=?base64?…?=` value encoding, building the headers for an outgoing message, and the
 * server-side check that the headers agree with the body.
 *
 * @packageDocumentation
 */

import { base64ToBytes, bytesToBase64 } from './base64';
import { readTraceContext } from './meta';
import { META_KEYS } from './meta-keys';
import { isRecord } from './util';
import type { McpHeaderParam } from './x-mcp-header';

/**
 * Header carrying the protocol version; it must equal the body's
 * `_meta["io.modelcontextprotocol/protocolVersion"]`.
 *
 * @experimental
 */
export const MCP_PROTOCOL_VERSION_HEADER = 'MCP-Protocol-Version';

/**
 * Header mirroring the JSON-RPC `method`.
 *
 * @experimental
 */
export const MCP_METHOD_HEADER = 'Mcp-Method';

/**
 * Header mirroring `params.name` (`tools/call`, `prompts/get`) or `params.uri` (`resources/read`).
 *
 * @experimental
 */
export const MCP_NAME_HEADER = 'Mcp-Name';

/**
 * Prefix of the headers that mirror `x-mcp-header`-annotated tool arguments.
 *
 * @experimental
 */
export const MCP_PARAM_HEADER_PREFIX = 'Mcp-Param-';

/**
 * Session header of the legacy Streamable HTTP revisions; modern servers ignore it.
 *
 * @experimental
 */
export const MCP_SESSION_ID_HEADER = 'Mcp-Session-Id';

/**
 * Outcome of {@link decodeHeaderValue}.
 *
 * @experimental
 */
export type HeaderDecodeResult = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Outcome of {@link checkRequestHeaders}; `header` names the first header that failed.
 *
 * @experimental
 */
export type HeaderCheckResult = { ok: true } | { ok: false; header: string; reason: string };

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// JSON number grammar: the body is JSON, so a mirrored integer is read the same way.
const JSON_NUMBER_RE = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

// Own properties only, so keys such as `constructor` never resolve through the prototype.
function ownValue(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

// Literal reading of the spec: "starts with =?base64? and ends with ?=", overlaps included.
function looksLikeSentinel(value: string): boolean {
  return value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
}

// Plain means printable ASCII with no edge spaces; HTAB is a control character, so it is encoded.
function isPlainSafe(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return !value.startsWith(' ') && !value.endsWith(' ') && !looksLikeSentinel(value);
}

// A received field value may hold VCHAR, SP and HTAB, and (RFC 9110) no edge whitespace.
function fieldValueProblem(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) {
      return `illegal character U+${c.toString(16).toUpperCase().padStart(4, '0')} at index ${i}`;
    }
  }
  if (/^[ \t]|[ \t]$/.test(value)) return 'leading or trailing whitespace';
  return undefined;
}

/**
 * Encodes a string for `Mcp-Name` or `Mcp-Param-*`. A value of printable ASCII without leading or
 * trailing space is sent as is; anything else (non-ASCII, control characters including HTAB,
 * leading/trailing whitespace, or a value that itself looks like `=?base64?…?=`) becomes
 * `=?base64?<base64 of the UTF-8 bytes>?=`. The empty string stays empty.
 *
 * Lone surrogates cannot be carried in UTF-8; `TextEncoder` replaces them with U+FFFD, so such a
 * value does not survive the round trip and a server comparing it with the body will reject it.
 *
 * @experimental
 */
export function encodeHeaderValue(value: string): string {
  if (isPlainSafe(value)) return value;
  return SENTINEL_PREFIX + bytesToBase64(new TextEncoder().encode(value)) + SENTINEL_SUFFIX;
}

/**
 * Decodes a received `Mcp-Name` or `Mcp-Param-*` value. A value that starts with `=?base64?` and
 * ends with `?=` must carry canonical, padded, standard-alphabet base64 of valid UTF-8; any other
 * value is taken literally. Characters outside VCHAR/SP/HTAB and leading or trailing whitespace
 * make the value malformed.
 *
 * @experimental
 */
export function decodeHeaderValue(raw: string): HeaderDecodeResult {
  const problem = fieldValueProblem(raw);
  if (problem !== undefined) return { ok: false, reason: problem };
  if (!looksLikeSentinel(raw)) return { ok: true, value: raw };
  if (raw.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) {
    return { ok: false, reason: 'truncated base64 sentinel' };
  }
  const payload = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length);
  if (!BASE64_RE.test(payload)) {
    return { ok: false, reason: 'sentinel payload is not padded standard base64' };
  }
  const bytes = base64ToBytes(payload);
  // Non-zero pad bits would give one value two spellings; only the canonical one is accepted.
  if (bytesToBase64(bytes) !== payload) {
    return { ok: false, reason: 'sentinel payload is not canonical base64' };
  }
  try {
    // ignoreBOM keeps a leading U+FEFF that belongs to the value.
    const value = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return { ok: true, value };
  } catch {
    return { ok: false, reason: 'sentinel payload is not valid UTF-8' };
  }
}

/**
 * Converts a tool argument to its `Mcp-Param-*` header value: a string through
 * {@link encodeHeaderValue}, a boolean as `true`/`false`, an integer in decimal. Returns
 * `undefined` for a number that is not an integer within ±(2^53−1) (including NaN and
 * infinities), since the spec only allows safe integers to be mirrored.
 *
 * @experimental
 */
export function encodeParamValue(value: string | number | boolean): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return Number.isSafeInteger(value) ? String(value) : undefined;
}

/**
 * Reads the argument at `path` (property keys from the root of `arguments`). Returns `undefined`
 * when any step is missing or not a plain object.
 */
function argumentAt(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = ownValue(current, key);
  }
  return current;
}

/**
 * The encoded `Mcp-Param-*` value for one annotated parameter, read from a `tools/call`
 * `arguments` object. Returns `undefined` when the value is absent, `null`, of a runtime type
 * other than the declared one, or an integer outside the safe range; the header is then omitted.
 *
 * @experimental
 */
export function encodeArgumentForHeader(param: McpHeaderParam, args: unknown): string | undefined {
  const value = argumentAt(args, param.path);
  switch (param.type) {
    case 'string':
      return typeof value === 'string' ? encodeHeaderValue(value) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? encodeParamValue(value) : undefined;
    case 'integer':
      return typeof value === 'number' ? encodeParamValue(value) : undefined;
  }
}

/** The tasks extension's methods route on their task (SEP-2663). */
const TASK_ROUTED = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

function nameKeyFor(method: string): 'name' | 'uri' | 'taskId' | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return 'name';
  if (TASK_ROUTED.has(method)) return 'taskId';
  return method === 'resources/read' ? 'uri' : undefined;
}

/**
 * The body value that `Mcp-Name` mirrors: `params.name` for `tools/call` and `prompts/get`,
 * `params.uri` for `resources/read`, `params.taskId` for `tasks/get`, `tasks/update` and
 * `tasks/cancel` (the tasks extension). Returns `undefined` for other methods and when the value is
 * not a string. The result is the raw value, not yet encoded.
 *
 * @experimental
 */
export function mcpNameFor(method: string, params: unknown): string | undefined {
  const key = nameKeyFor(method);
  const value = key === undefined ? undefined : ownValue(params, key);
  return typeof value === 'string' ? value : undefined;
}

function requirePlain(header: string, value: string): void {
  if (!isPlainSafe(value)) {
    // These headers have no base64 form, so an unsafe value cannot be sent at all.
    throw new TypeError(
      `${header} value ${JSON.stringify(value)} is not a safe plain header value`,
    );
  }
}

/**
 * Builds the request metadata headers for one outgoing message: `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name` (encoded) for the methods that carry it, and for `tools/call`
 * one `Mcp-Param-<Name>` per annotated argument that is present, non-null and of the declared
 * type. `Mcp-Method` is also set for notifications: the spec requires it on requests only and
 * leaves notification POSTs open, and mirroring the method costs nothing there.
 * The W3C trace context of `_meta` (`traceparent`, `tracestate`, `baggage`) is mirrored into
 * the headers of the same names, for HTTP middleware that reads only headers.
 *
 * `headerParams` should come from `collectHeaderParams` for the tool being called.
 *
 * @throws TypeError when the protocol version or the method is not a plain header-safe string,
 *   since those two headers have no encoded form.
 * @experimental
 */
export function buildRequestHeaders(
  message: { method: string; params?: unknown },
  protocolVersion: string,
  headerParams: readonly McpHeaderParam[] = [],
): Record<string, string> {
  requirePlain(MCP_PROTOCOL_VERSION_HEADER, protocolVersion);
  requirePlain(MCP_METHOD_HEADER, message.method);
  const headers: Record<string, string> = {
    [MCP_PROTOCOL_VERSION_HEADER]: protocolVersion,
    [MCP_METHOD_HEADER]: message.method,
  };
  const name = mcpNameFor(message.method, message.params);
  if (name !== undefined) headers[MCP_NAME_HEADER] = encodeHeaderValue(name);
  const trace = readTraceContext(ownValue(message.params, '_meta'));
  for (const [header, value] of Object.entries(trace ?? {})) {
    if (isPlainSafe(value)) headers[header] = value;
  }
  if (message.method === 'tools/call') {
    const args = ownValue(message.params, 'arguments');
    for (const param of headerParams) {
      const value = encodeArgumentForHeader(param, args);
      if (value !== undefined) headers[MCP_PARAM_HEADER_PREFIX + param.header] = value;
    }
  }
  return headers;
}

/**
 * Exact integer value of a JSON number literal as a canonical decimal string, or `undefined` when
 * it is not an integer or has more digits than any safe integer. Done on the digits rather than
 * with `Number()` so that e.g. `9007199254740991.4` cannot round onto a body value.
 */
function integerLiteral(text: string): string | undefined {
  const m = JSON_NUMBER_RE.exec(text);
  if (m === null) return undefined;
  const [, sign = '', intPart = '', fraction = '', exponent = '0'] = m;
  const all = intPart + fraction;
  const digits = all.replace(/^0+/, '');
  if (digits === '') return '0';
  // A nonzero value with |exponent| >= 10^4 is never a safe integer; bail before padding.
  if (exponent.replace(/^[+-]?0*/, '').length > 4) return undefined;
  // Position of the decimal point within `digits`.
  const point = intPart.length - (all.length - digits.length) + Number(exponent);
  if (point <= 0 || point > 16) return undefined;
  if (/[^0]/.test(digits.slice(point))) return undefined;
  return sign + digits.slice(0, point).padEnd(point, '0');
}

function paramMismatch(param: McpHeaderParam, decoded: string, body: unknown): string | undefined {
  switch (param.type) {
    case 'string':
      if (typeof body !== 'string') return 'body value is not a string';
      return decoded === body ? undefined : 'header value differs from the body value';
    case 'boolean':
      if (typeof body !== 'boolean') return 'body value is not a boolean';
      return decoded === String(body) ? undefined : 'header value differs from the body value';
    case 'integer': {
      if (typeof body !== 'number' || !Number.isSafeInteger(body)) {
        return 'body value is not an integer within ±(2^53−1)';
      }
      // Numeric comparison (SHOULD in the spec), so `42.0` matches 42.
      return integerLiteral(decoded) === String(body)
        ? undefined
        : 'header value is not numerically equal to the body value';
    }
  }
}

/**
 * Server-side validation that the request metadata headers agree with the JSON-RPC body:
 *
 * - `MCP-Protocol-Version` must be present and, when the body carries
 *   `params._meta["io.modelcontextprotocol/protocolVersion"]`, equal to it (a body without that
 *   field is malformed, which body validation reports as -32602);
 * - `Mcp-Method` must equal `method`; it is required on requests (messages with an `id`) and
 *   checked on notifications only when present, as the spec leaves notification POSTs open;
 * - `Mcp-Name` must be present for `tools/call`, `prompts/get`, `resources/read` and the tasks
 *   extension's `tasks/get`, `tasks/update` and `tasks/cancel` and, after decoding, equal the
 *   body's name, URI or task id when the body has one;
 * - for `tools/call`, each declared `Mcp-Param-<Name>` must be present exactly when the argument is
 *   present and non-null, and equal it after decoding (integers numerically, booleans as
 *   `true`/`false`). Undeclared `Mcp-Param-*` headers are not looked at.
 *
 * Every header read must consist of VCHAR/SP/HTAB without edge whitespace. The first failure is
 * returned. Mapping it to HTTP 400 with JSON-RPC error -32020 (HeaderMismatch) is the caller's job.
 *
 * @param getHeader - case-insensitive header lookup, e.g. `(n) => request.headers.get(n)`.
 * @param headerParams - the called tool's annotated parameters, from `collectHeaderParams`.
 * @experimental
 */
export function checkRequestHeaders(
  getHeader: (name: string) => string | null | undefined,
  message: { method: string; params?: unknown; id?: unknown },
  headerParams: readonly McpHeaderParam[] = [],
): HeaderCheckResult {
  const fail = (header: string, reason: string): HeaderCheckResult => ({
    ok: false,
    header,
    reason,
  });

  const version = getHeader(MCP_PROTOCOL_VERSION_HEADER);
  if (version == null) return fail(MCP_PROTOCOL_VERSION_HEADER, 'header is missing');
  const versionProblem = fieldValueProblem(version);
  if (versionProblem !== undefined) return fail(MCP_PROTOCOL_VERSION_HEADER, versionProblem);
  const bodyVersion = ownValue(ownValue(message.params, '_meta'), META_KEYS.protocolVersion);
  if (typeof bodyVersion === 'string' && version !== bodyVersion) {
    return fail(MCP_PROTOCOL_VERSION_HEADER, 'header value differs from the body _meta value');
  }

  const method = getHeader(MCP_METHOD_HEADER);
  if (method == null) {
    if (message.id !== undefined) return fail(MCP_METHOD_HEADER, 'header is missing');
  } else {
    const methodProblem = fieldValueProblem(method);
    if (methodProblem !== undefined) return fail(MCP_METHOD_HEADER, methodProblem);
    if (method !== message.method)
      return fail(MCP_METHOD_HEADER, 'header value differs from method');
  }

  if (nameKeyFor(message.method) !== undefined) {
    const raw = getHeader(MCP_NAME_HEADER);
    if (raw == null) return fail(MCP_NAME_HEADER, 'header is missing');
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return fail(MCP_NAME_HEADER, decoded.reason);
    const bodyName = mcpNameFor(message.method, message.params);
    if (bodyName !== undefined && decoded.value !== bodyName) {
      return fail(MCP_NAME_HEADER, 'header value differs from the body value');
    }
  }

  if (message.method !== 'tools/call') return { ok: true };
  const args = ownValue(message.params, 'arguments');
  for (const param of headerParams) {
    const header = MCP_PARAM_HEADER_PREFIX + param.header;
    const body = argumentAt(args, param.path);
    const raw = getHeader(header);
    const bodyPresent = body !== undefined && body !== null;
    if (raw == null) {
      if (bodyPresent) return fail(header, 'header is missing but the argument is in the body');
      continue;
    }
    if (!bodyPresent) return fail(header, 'header is present but the argument is absent or null');
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return fail(header, decoded.reason);
    const mismatch = paramMismatch(param, decoded.value, body);
    if (mismatch !== undefined) return fail(header, mismatch);
  }
  return { ok: true };
}
