/**
 * The one rule for keeping secrets out of what twofold prints: errors, `--json` output, doctor
 * reports, `--verbose` traces, bridge logs and `config` listings all show servers and messages
 * through this module.
 *
 * - A URL keeps its scheme, host, port, path and query names; userinfo and query values become
 *   `***` (`http://***@host/mcp?api_key=***`), the fragment is dropped.
 * - A command line hides the value of a secret-named option (`--api-key=***`, `--token ***`,
 *   `API_KEY=***`) and redacts every URL in it; environment and header values are never shown.
 * - In MCP messages and OAuth documents: values of secret-named fields (the registry adapter's
 *   rules: tokens, secrets, passwords, `Authorization`), credential-bearing OAuth parameters
 *   (`code`, `code_verifier`, `id_token`, assertions), credential headers, and `Bearer …`-style
 *   values wherever they appear.
 */
import { isSecretKeyName } from '@twofold/registry-adapter/experimental';

/** What a hidden value is shown as. */
export const MASK = '***';

/** The start of a URL with a scheme (`https://`, `postgres://`). */
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;
/** URLs inside free text, up to a space, a quote or a bracket. */
const URLS_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>()[\]{}]+/gi;
/** `--name=value`, `-n=value`, or `NAME=value` (an environment assignment before a command). */
const ASSIGNMENT = /^(--?[A-Za-z][\w.-]*|[A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
/** An option that may take the next argument as its value. */
const OPTION = /^--?[A-Za-z][\w.-]*$/;
/** Option names that mean a credential on a command line but are too short for the name rule. */
const SHORT_SECRET_OPTIONS = new Set(['key', 'pass', 'pw']);

/** Whether a command-line option or variable names a secret (`--api-key`, `--key`, `TOKEN`). */
function isSecretOption(name: string): boolean {
  const bare = name.replace(/^-+/, '');
  return isSecretKeyName(bare) || SHORT_SECRET_OPTIONS.has(bare.toLowerCase());
}

/** A URL as it may be shown: userinfo and query values hidden, no fragment. */
export function redactUrl(raw: string | URL): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(invalid URL)';
  }
  const hadUserinfo = url.username !== '' || url.password !== '';
  const params = [...url.searchParams];
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  const at = url.href.indexOf('//') + 2;
  const userinfo = hadUserinfo && at >= 2 ? `${MASK}@` : '';
  // A parameter without a value may itself be the credential (`?sk-…`): hidden whole.
  const query = params
    .map(([name, value]) => (value === '' ? MASK : `${encodeURIComponent(name)}=${MASK}`))
    .join('&');
  return `${url.href.slice(0, at)}${userinfo}${url.href.slice(at)}${query === '' ? '' : `?${query}`}`;
}

/** Free text (an error message, a child's stderr) with every URL in it redacted. */
export function redactUrlsIn(text: string): string {
  // Punctuation ending a sentence ("…/mcp: HTTP 403") is the text's, not the URL's.
  return text.replace(URLS_IN_TEXT, (match) => {
    const url = match.replace(/[.,:;!?]+$/, '');
    return `${redactUrl(url)}${match.slice(url.length)}`;
  });
}

/** Command-line arguments with secret option values hidden and URLs redacted. */
export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let hideNext = false;
  for (const arg of args) {
    if (hideNext) {
      out.push(MASK);
      hideNext = false;
      continue;
    }
    const assignment = ASSIGNMENT.exec(arg);
    if (assignment !== null) {
      const [, name = '', value = ''] = assignment;
      out.push(`${name}=${isSecretOption(name) ? MASK : redactWord(value)}`);
    } else {
      out.push(redactWord(arg));
      hideNext = OPTION.test(arg) && isSecretOption(arg);
    }
  }
  return out;
}

function redactWord(word: string): string {
  return URL_START.test(word) ? redactUrl(word) : word;
}

/** A command line as it may be shown, words quoted when needed: `node server.js --token ***`. */
export function describeCommandLine(command: string, args: readonly string[]): string {
  return [redactWord(command), ...redactArgs(args)].map(quoteWord).join(' ');
}

/** A server as a report shows it: headers and environment variables named, never their values. */
export function describeTarget(
  target:
    | { kind: 'http'; url: string; headers?: Record<string, string> }
    | { kind: 'stdio'; command: string; args?: string[]; env?: Record<string, string> },
): string {
  if (target.kind === 'http') {
    const headers = Object.keys(target.headers ?? {});
    const suffix = headers.length > 0 ? ` (headers: ${headers.join(', ')})` : '';
    return `http: ${redactUrl(target.url)}${suffix}`;
  }
  const env = Object.keys(target.env ?? {});
  const suffix = env.length > 0 ? ` (env: ${env.map((name) => `${name}=${MASK}`).join(', ')})` : '';
  return `stdio: ${describeCommandLine(target.command, target.args ?? [])}${suffix}`;
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,.*/?&-]+$/.test(word) ? word : JSON.stringify(word);
}

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
