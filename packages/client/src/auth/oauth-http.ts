/**
 * How every OAuth request goes out: through oauth4webapi with the host's fetch, a bounded
 * wait, plain http only to loopback hosts, and failures turned into an `AuthorizationError`
 * that names the step and the server's OAuth error code but never a token or secret.
 */
import * as oauth from 'oauth4webapi';
import { messageOf } from '../util';
import { AuthorizationError, type AuthorizationStep } from './errors';

/** What the requests of one provider share. */
export interface OAuthHttp {
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}

/** RFC 8252 §8.3: plain http is acceptable only to the machine itself. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** oauth4webapi's per-request options for a request to `url`. */
export function requestOptions(http: OAuthHttp, url: URL | string | undefined) {
  const target = url === undefined ? undefined : new URL(url);
  return {
    [oauth.customFetch]: http.fetch,
    [oauth.allowInsecureRequests]: target !== undefined && isLoopback(target),
    signal: AbortSignal.timeout(http.timeoutMs),
  };
}

/** A GET for a JSON document, bounded like the rest; `undefined` when it is not there (4xx). */
export async function getJson(http: OAuthHttp, url: URL): Promise<Response | undefined> {
  if (url.protocol !== 'https:' && !isLoopback(url)) return undefined;
  const response = await http.fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(http.timeoutMs),
  });
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  return response;
}

/** Runs one OAuth step, turning whatever it throws into an `AuthorizationError` for `step`. */
export async function step<T>(
  name: AuthorizationStep,
  what: string,
  task: () => Promise<T>,
  details: Record<string, unknown> = {},
): Promise<T> {
  try {
    return await task();
  } catch (error) {
    throw explain(name, what, error, details);
  }
}

/**
 * An `AuthorizationError` for a failure of `what` (e.g. "the token request to …"). The original
 * error is not attached: oauth4webapi's errors carry response bodies and callback parameters
 * (tokens, codes) in their `cause`.
 */
export function explain(
  name: AuthorizationStep,
  what: string,
  error: unknown,
  details: Record<string, unknown> = {},
): AuthorizationError {
  if (error instanceof AuthorizationError) return error;
  if (
    error instanceof oauth.ResponseBodyError ||
    error instanceof oauth.AuthorizationResponseError
  ) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    const status = error instanceof oauth.ResponseBodyError ? { status: error.status } : {};
    return new AuthorizationError(name, `${what} failed with ${error.error}${description}`, {
      details: { ...details, ...status, oauthError: error.error },
    });
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new AuthorizationError(name, `${what} timed out`, { details });
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  const cause =
    error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return new AuthorizationError(name, `${what} failed: ${messageOf(error)}${cause}`, {
    details: typeof code === 'string' ? { ...details, reason: code } : details,
  });
}

/**
 * `error` with every occurrence of `secrets` (a client secret, an assertion, a refresh token)
 * in its message and details masked: a server may echo what it was sent in its
 * `error_description`. Other errors are returned as they are.
 */
export function redact(error: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (!(error instanceof AuthorizationError)) return error;
  // As sent, and as a form or a URL would carry it.
  const known = secrets
    .filter((secret): secret is string => (secret?.length ?? 0) >= 4)
    .flatMap((secret) => [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ])
    .sort((a, b) => b.length - a.length);
  const scrub = (text: string) =>
    known.reduce((masked, secret) => masked.split(secret).join('[redacted]'), text);
  const details = Object.fromEntries(
    Object.entries(error.details ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string' ? scrub(value) : value,
    ]),
  );
  const message = scrub(error.message);
  if (message === error.message && JSON.stringify(details) === JSON.stringify(error.details ?? {}))
    return error;
  return new AuthorizationError(error.step, message, { details });
}
