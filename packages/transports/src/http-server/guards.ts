/**
 * The checks a request passes before its body is read: Host and Origin (DNS-rebinding
 * protection), `Content-Type` and `Accept`. Each returns the refusal to send, or undefined.
 */
import type { IncomingRequest } from './incoming';
import { type Reply, rejectRequest } from './responses';
import type { HttpRequestContext } from './types';

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

/** The host name of a `Host` value (`name[:port]` or `[v6]:port`), lower-cased. */
function hostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

/** Whether a host name or `Host` value names this machine's loopback interface. */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127(\.\d+){3}$/.test(name);
}

/** Whether a socket address (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`) is a loopback one. */
function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return address === '::1' || /^127(\.\d+){3}$/.test(v4);
}

/** `host:port`, bracketing an IPv6 address. */
export function authority(host: string, port: number): string {
  const name = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${name}:${port}`;
}

/**
 * The default Host allow-list: for a connection that arrived on a loopback address, the
 * loopback names with its port (a DNS-rebinding page sends its own name); otherwise, or when
 * the runtime did not say where the connection arrived, none.
 */
function defaultAllowedHosts(context: HttpRequestContext | undefined): string[] | undefined {
  const local = context?.localAddress;
  if (local === undefined || !isLoopbackAddress(local.address)) return undefined;
  const names = ['127.0.0.1', 'localhost', '[::1]', local.address.replace(/^::ffff:/, '')];
  return [...new Set(names.map((name) => authority(name, local.port)))];
}

/**
 * 403 unless the Host header is allowed (compared case-insensitively): one of `allowedHosts`,
 * or by default one of the loopback names when the connection arrived on a loopback address
 * (see {@link HttpRequestContext.localAddress}). `false` turns the check off.
 */
export function checkHost(
  request: IncomingRequest,
  allowedHosts: readonly string[] | false | undefined,
  context: HttpRequestContext | undefined,
): Reply | undefined {
  const allowed =
    allowedHosts === false ? undefined : (allowedHosts ?? defaultAllowedHosts(context));
  if (allowed === undefined) return undefined;
  const host = request.host().toLowerCase();
  if (allowed.some((entry) => entry.toLowerCase() === host)) return undefined;
  return rejectRequest(403, `Host ${JSON.stringify(host)} is not allowed (see allowedHosts)`);
}

function originOf(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * 403 when a present `Origin` is not allowed. With `allowedOrigins`, it must be one of them
 * (as an origin: scheme, host and port). By default it must be a loopback origin, whatever the
 * Host: a DNS-rebinding page names its own host in both `Host` and `Origin`, so only a list
 * tells a public origin from an attacker's. Requests without `Origin` (non-browser clients,
 * which no web page can speak for) pass. `false` turns the check off.
 */
export function checkOrigin(
  request: IncomingRequest,
  allowedOrigins: readonly string[] | false | undefined,
): Reply | undefined {
  const origin = request.header('origin');
  if (origin === undefined || allowedOrigins === false) return undefined;
  // `Origin: null` (sandboxed frames, file:) fails to parse and is refused.
  const parsed = originOf(origin);
  const allowed =
    parsed !== undefined &&
    (allowedOrigins === undefined
      ? isLoopbackHost(parsed.host)
      : allowedOrigins.some((entry) => originOf(entry)?.origin === parsed.origin));
  return allowed
    ? undefined
    : rejectRequest(403, `Origin ${JSON.stringify(origin)} is not allowed (see allowedOrigins)`);
}

/** 415 unless the body is declared `application/json` (a charset, if any, must be UTF-8). */
export function checkContentType(request: IncomingRequest): Reply | undefined {
  const value = request.header('content-type');
  if (value !== undefined) {
    const [essence = '', ...params] = value.split(';').map((part) => part.trim().toLowerCase());
    const charset = params.find((param) => param.startsWith('charset='))?.slice('charset='.length);
    const utf8 = charset === undefined || ['utf-8', '"utf-8"', 'utf8'].includes(charset);
    if (essence === 'application/json' && utf8) return undefined;
  }
  return rejectRequest(415, 'Content-Type must be application/json (UTF-8)');
}

/** The media ranges of an `Accept` header with a non-zero quality, lower-cased. */
function acceptedRanges(request: IncomingRequest): string[] {
  const header = request.header('accept') ?? '';
  const ranges: string[] = [];
  for (const entry of header.split(',')) {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (range !== '' && (q === undefined || Number(q.slice(2)) > 0)) ranges.push(range);
  }
  return ranges;
}

function accepts(ranges: readonly string[], mediaType: string): boolean {
  const type = mediaType.slice(0, mediaType.indexOf('/'));
  return ranges.some((range) => range === mediaType || range === `${type}/*` || range === '*/*');
}

/**
 * 406 unless `Accept` admits every one of `mediaTypes`. Wildcards count: `*\/*` admits both
 * JSON and SSE, `application/*` admits JSON. A missing `Accept` is refused, since MCP clients
 * must send one.
 */
export function checkAccept(
  request: IncomingRequest,
  mediaTypes: readonly string[],
): Reply | undefined {
  const ranges = acceptedRanges(request);
  if (mediaTypes.every((mediaType) => accepts(ranges, mediaType))) return undefined;
  return rejectRequest(406, `Accept must include ${mediaTypes.join(' and ')}`);
}
