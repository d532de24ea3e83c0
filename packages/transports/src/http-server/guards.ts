/**
 * The checks a request passes before its body is read: Host and Origin (DNS-rebinding
 * protection), `Content-Type` and `Accept`. Each returns the refusal to send, or undefined.
 */
import { rejectRequest } from './responses';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

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

/** Whether a `Host` value names this machine's loopback interface. */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost');
}

/** The `Host` the client addressed; falls back to the URL where a runtime omits the header. */
export function requestHost(request: Request): string {
  return request.headers.get('host') ?? new URL(request.url).host;
}

/** 403 unless the Host header is in `allowedHosts` (compared case-insensitively). */
export function checkHost(
  request: Request,
  allowedHosts: readonly string[] | undefined,
): Response | undefined {
  if (allowedHosts === undefined) return undefined;
  const host = requestHost(request).toLowerCase();
  if (allowedHosts.some((allowed) => allowed.toLowerCase() === host)) return undefined;
  return rejectRequest(403, `Host ${JSON.stringify(host)} is not allowed`);
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
 * (as an origin: scheme, host and port). Without, a request addressed to a loopback host must
 * come from a loopback origin, so a web page elsewhere cannot reach a local server. Requests
 * without `Origin` (non-browser clients) pass.
 */
export function checkOrigin(
  request: Request,
  allowedOrigins: readonly string[] | undefined,
): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin === null) return undefined;
  const parsed = originOf(origin);
  let allowed: boolean;
  if (allowedOrigins !== undefined) {
    allowed =
      parsed !== undefined &&
      allowedOrigins.some((entry) => originOf(entry)?.origin === parsed.origin);
  } else {
    // `Origin: null` (sandboxed frames, file:) fails to parse and is refused here.
    allowed =
      !isLoopbackHost(requestHost(request)) ||
      (parsed !== undefined && isLoopbackHost(parsed.host));
  }
  return allowed
    ? undefined
    : rejectRequest(403, `Origin ${JSON.stringify(origin)} is not allowed`);
}

/** 415 unless the body is declared `application/json` (a charset, if any, must be UTF-8). */
export function checkContentType(request: Request): Response | undefined {
  const value = request.headers.get('content-type');
  if (value !== null) {
    const [essence = '', ...params] = value.split(';').map((part) => part.trim().toLowerCase());
    const charset = params.find((param) => param.startsWith('charset='))?.slice('charset='.length);
    const utf8 = charset === undefined || ['utf-8', '"utf-8"', 'utf8'].includes(charset);
    if (essence === 'application/json' && utf8) return undefined;
  }
  return rejectRequest(415, 'Content-Type must be application/json (UTF-8)');
}

/** The media ranges of an `Accept` header with a non-zero quality, lower-cased. */
function acceptedRanges(request: Request): string[] {
  const header = request.headers.get('accept') ?? '';
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
export function checkAccept(request: Request, mediaTypes: readonly string[]): Response | undefined {
  const ranges = acceptedRanges(request);
  if (mediaTypes.every((mediaType) => accepts(ranges, mediaType))) return undefined;
  return rejectRequest(406, `Accept must include ${mediaTypes.join(' and ')}`);
}
