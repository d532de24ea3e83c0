/**
 * What `--verbose` hides: values of secret-named fields (the registry adapter's rules: tokens,
 * secrets, passwords, `Authorization`), credential-bearing OAuth parameters (`code`,
 * `code_verifier`, `id_token`, assertions), credential headers, and `Bearer …`-style values
 * wherever they appear. Loaded only for traces.
 */
import { isSecretKeyName } from '@twofold/registry-adapter/experimental';

/** What a hidden value is shown as. */
export const MASK = '***';

/**
 * OAuth parameters and fields that carry a credential (RFC 6749, 7636, 7523, 7591, 8693, OIDC).
 * `code` is one only in OAuth: an MCP tool argument called `code` is not masked.
 */
const OAUTH_CREDENTIALS = new Set([
  'code',
  'code_verifier',
  'id_token',
  'assertion',
  'client_assertion',
  'device_code',
  'subject_token',
  'actor_token',
  'logout_token',
]);

/** Headers whose values are credentials. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'dpop',
]);

/** `Bearer abc`, `DPoP abc`, `Basic abc`: a credential whatever field holds it. */
const SCHEME_VALUE = /^(Bearer|DPoP|Basic)\s+\S/i;

/** Whether an MCP message field's value is hidden. */
export function isMaskedField(key: string, value: string): boolean {
  return (
    isSecretKeyName(key) ||
    (key !== 'code' && OAUTH_CREDENTIALS.has(key.toLowerCase())) ||
    SCHEME_VALUE.test(value)
  );
}

/** Whether an OAuth request or response field's value is hidden. */
export function isMaskedOAuthField(key: string, value: string): boolean {
  return OAUTH_CREDENTIALS.has(key.toLowerCase()) || isMaskedField(key, value);
}

/** JSON replacer for MCP messages. */
export function maskedJsonValue(key: string, value: unknown): unknown {
  return key !== '' && typeof value === 'string' && isMaskedField(key, value) ? MASK : value;
}

/** JSON replacer for OAuth documents (token responses, registrations). */
export function maskedOAuthJsonValue(key: string, value: unknown): unknown {
  return key !== '' && typeof value === 'string' && isMaskedOAuthField(key, value) ? MASK : value;
}

/** Form or query parameters with credential values hidden, as `a=1&code=***`. */
export function maskParams(params: URLSearchParams): string {
  return [...params]
    .map(([key, value]) => `${key}=${isMaskedOAuthField(key, value) ? MASK : value}`)
    .join('&');
}

/** A URL without its password and with credential query values hidden. */
export function maskUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASK;
  }
  if (parsed.password) parsed.password = MASK;
  const query = parsed.search === '' ? '' : `?${maskParams(parsed.searchParams)}`;
  parsed.search = '';
  parsed.hash = '';
  return `${parsed.href}${query}`;
}

/** Whether a header carries a credential. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase()) || isSecretKeyName(name);
}

/** A header's value as a trace shows it. */
export function maskHeader(name: string, value: string): string {
  if (isCredentialHeader(name)) {
    const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
    return scheme === undefined ? MASK : `${scheme} ${MASK}`;
  }
  return value;
}

/** A body as a trace shows it: JSON and forms with credentials hidden, anything else summarised. */
export function maskBody(body: string, contentType: string | null): string {
  const type = contentType?.toLowerCase() ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(body)) {
    try {
      return JSON.stringify(JSON.parse(body), maskedOAuthJsonValue);
    } catch {
      // Not JSON after all.
    }
  }
  if (type.includes('x-www-form-urlencoded')) return maskParams(new URLSearchParams(body));
  return body === '' ? '' : `(${body.length} characters of ${type || 'text'})`;
}
