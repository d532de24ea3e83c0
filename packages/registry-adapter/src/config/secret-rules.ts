/**
 * Pure rules that tell a literal secret from a `${env:NAME}` reference in a server entry. They
 * serve both validation (a literal secret is an error) and redaction (for display). The rules are
 * heuristics: a key that names a secret (token, password, api key, authorization, …) must hold a
 * reference, and any value that starts like a well-known token format is a secret wherever it is.
 */
import { isRecord } from '@twofold/protocol/experimental';

/** `${env:NAME}`; NAME as a POSIX variable name. */
export const ENV_REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const REFERENCE_START = /\$\{env:/g;
/**
 * VS Code's `${input:ID}`: a value VS Code prompts for. It is a reference, not a literal secret,
 * but twofold cannot supply it (`resolveSecrets` says so).
 */
export const INPUT_REFERENCE = /\$\{input:([^}\s]+)\}/g;
/** The reference syntax as shown in messages. */
const REFERENCE_EXAMPLE = '$' + '{env:NAME}';

/** Words of a key that make it name a secret. */
const SECRET_WORDS = new Set([
  'token',
  'tokens',
  'secret',
  'secrets',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'apikey',
  'authorization',
  'auth',
  'credential',
  'credentials',
  'cookie',
  'pat',
  'bearer',
  'privatekey',
  'accesskey',
  'secretkey',
]);
/** `<word> key` pairs that name a secret. */
const KEY_QUALIFIERS = new Set([
  'api',
  'private',
  'access',
  'secret',
  'signing',
  'encryption',
  'master',
  'license',
]);
/** Words that make a secret-sounding key describe something else (`TOKEN_FILE`, `AUTH_MODE`). */
const DESCRIPTIVE_WORDS = new Set([
  'file',
  'path',
  'dir',
  'directory',
  'env',
  'var',
  'name',
  'url',
  'uri',
  'endpoint',
  'host',
  'type',
  'mode',
  'method',
  'header',
  'helper',
  'cmd',
  'command',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'length',
  'limit',
  'count',
  'id',
  'enabled',
  'disabled',
  'required',
  'scope',
  'scopes',
  'audience',
  'issuer',
  'provider',
  'kind',
  'format',
  'prefix',
]);
/** Values that cannot be secrets (flags, empty). */
const HARMLESS_VALUES = new Set([
  '',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  '0',
  '1',
  'none',
  'null',
]);

/** Well-known token formats, matched at the start of a value or of a word inside it. */
const TOKEN_FORMATS: readonly { label: string; pattern: RegExp }[] = [
  { label: 'a GitHub token (github_pat_…)', pattern: /^github_pat_[A-Za-z0-9_]{20,}/ },
  { label: 'a GitHub token (ghp_…)', pattern: /^gh[pousr]_[A-Za-z0-9]{20,}/ },
  { label: 'a GitLab token (glpat-…)', pattern: /^glpat-[A-Za-z0-9_-]{16,}/ },
  { label: 'an API key (sk-…)', pattern: /^sk-[A-Za-z0-9_-]{16,}/ },
  { label: 'a Stripe key (sk_/rk_…)', pattern: /^[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/ },
  { label: 'a Slack token (xox…-)', pattern: /^xox[abposr]-[A-Za-z0-9-]{10,}/ },
  { label: 'a Slack app token (xapp-…)', pattern: /^xapp-[A-Za-z0-9-]{10,}/ },
  { label: 'an AWS access key (AKIA…)', pattern: /^(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/ },
  { label: 'a Google API key (AIza…)', pattern: /^AIza[0-9A-Za-z_-]{35}/ },
  { label: 'a Google OAuth token (ya29.…)', pattern: /^ya29\.[A-Za-z0-9_-]{20,}/ },
  { label: 'a Hugging Face token (hf_…)', pattern: /^hf_[A-Za-z0-9]{20,}/ },
  { label: 'an npm token (npm_…)', pattern: /^npm_[A-Za-z0-9]{30,}/ },
  { label: 'a PyPI token (pypi-…)', pattern: /^pypi-[A-Za-z0-9_-]{20,}/ },
  { label: 'a Linear key (lin_api_…)', pattern: /^lin_api_[A-Za-z0-9]{20,}/ },
];
/** The start of a URL with a scheme. */
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Characters that separate a token from its surroundings inside a value. */
const TOKEN_SEPARATORS = /[\s=:,;"'?&/@()[\]{}<>]+/;

/**
 * Splits a key into lower-case words: `GITHUB_PERSONAL_ACCESS_TOKEN`, `x-api-key`, `apiKey`.
 */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/**
 * Whether a key (env variable, header, URL query parameter, CLI flag, JSON field) names a
 * secret: `GITHUB_TOKEN`, `x-api-key`, `Authorization`, but not `TOKEN_FILE` or `AUTH_MODE`.
 *
 * @experimental
 */
export function looksSecretKey(key: string): boolean {
  const words = keyWords(key);
  if (words.some((w) => DESCRIPTIVE_WORDS.has(w))) return false;
  return words.some(
    (w, i) =>
      SECRET_WORDS.has(w) || (w === 'key' && i > 0 && KEY_QUALIFIERS.has(words[i - 1] ?? '')),
  );
}

/** Whether a string holds at least one well-formed `${env:NAME}` or `${input:ID}` reference. */
export function hasEnvReference(value: string): boolean {
  return value.replace(ENV_REFERENCE, '').replace(INPUT_REFERENCE, '') !== value;
}

/** The label of the well-known token format found in `value`, if any. */
export function tokenFormatIn(value: string): string | undefined {
  for (const word of value.split(TOKEN_SEPARATORS)) {
    for (const format of TOKEN_FORMATS) if (format.pattern.test(word)) return format.label;
  }
  return undefined;
}

/** Replaces every well-known token inside `value` with `***`. */
function redactTokens(value: string): string {
  return value
    .split(/([\s=:,;"'?&/@()[\]{}<>]+)/)
    .map((part) => (TOKEN_FORMATS.some((f) => f.pattern.test(part)) ? '***' : part))
    .join('');
}

/** A secret-key value that is a literal secret: no reference and not a harmless flag value. */
function isLiteralSecretValue(value: string): boolean {
  return !hasEnvReference(value) && !HARMLESS_VALUES.has(value.trim().toLowerCase());
}

/** Keeps an auth scheme visible: `Bearer abc` → `Bearer ***`. */
function redactWhole(value: string): string {
  const scheme = /^(Bearer|Basic|Token|Digest)\s+/i.exec(value);
  return scheme === null ? '***' : `${scheme[0]}***`;
}

/**
 * One place in an entry that holds a literal secret or a malformed reference.
 */
export interface SecretFinding {
  /** Path inside the entry, e.g. `['env', 'GITHUB_TOKEN']`. */
  path: PropertyKey[];
  kind: 'literal-secret' | 'malformed-reference';
  /** What was found, without the value: `a GitHub token (ghp_…)`, `a value of a secret-named key`. */
  what: string;
  /** What to write instead. */
  hint: string;
  /** The value with its secret parts replaced by `***`. */
  redacted: string;
}

/**
 * Finds literal secrets and malformed `${env:…}` references in a raw (or parsed, or resolved)
 * server entry. Never returns a secret value except inside `redacted`, which has it masked.
 */
export function inspectEntry(entry: unknown): SecretFinding[] {
  const findings: SecretFinding[] = [];
  if (!isRecord(entry)) return findings;
  const check = (path: PropertyKey[], value: unknown, secretKey: string | undefined): void => {
    if (typeof value !== 'string') return;
    // A connection string (`postgres://user:pw@host`) hides its password like a URL does.
    const finding =
      inspectValue(path, value, secretKey) ??
      (URL_START.test(value) ? inspectUrl(value, path) : undefined);
    if (finding !== undefined) findings.push(finding);
  };
  for (const field of ['env', 'headers'] as const) {
    const record = entry[field];
    if (!isRecord(record)) continue;
    for (const [key, value] of Object.entries(record)) check([field, key], value, key);
  }
  const args = entry.args;
  if (Array.isArray(args)) {
    args.forEach((arg, i) => {
      const flag = typeof arg === 'string' ? /^--?([A-Za-z][\w.-]*)(?:=(.*))?$/s.exec(arg) : null;
      if (flag?.[1] !== undefined && flag[2] !== undefined && looksSecretKey(flag[1])) {
        const finding = inspectValue(['args', i], flag[2], flag[1]);
        if (finding !== undefined) {
          findings.push({
            ...finding,
            redacted: `${arg.slice(0, arg.length - flag[2].length)}***`,
          });
        }
        return;
      }
      const previous = i > 0 ? args[i - 1] : undefined;
      const prevFlag =
        typeof previous === 'string' ? /^--?([A-Za-z][\w.-]*)$/.exec(previous) : null;
      const secretFlag = prevFlag?.[1] !== undefined && looksSecretKey(prevFlag[1]);
      const isValue = typeof arg === 'string' && !arg.startsWith('-');
      check(['args', i], arg, secretFlag && isValue ? prevFlag?.[1] : undefined);
    });
  }
  if (typeof entry.url === 'string') {
    const finding = inspectUrl(entry.url, ['url']);
    if (finding !== undefined) findings.push(finding);
  }
  for (const field of ['command', 'cwd'] as const) check([field], entry[field], undefined);
  return findings;
}

function inspectValue(
  path: PropertyKey[],
  value: string,
  secretKey: string | undefined,
): SecretFinding | undefined {
  const malformed = malformedReference(value);
  if (malformed !== undefined) {
    return {
      path,
      kind: 'malformed-reference',
      what: `a malformed reference "${malformed}"`,
      hint: `write "${REFERENCE_EXAMPLE}" with NAME made of letters, digits and "_"`,
      redacted: value,
    };
  }
  const token = tokenFormatIn(value.replace(ENV_REFERENCE, ''));
  const bearer = /^(Bearer|Basic|Token)\s+\S/i.test(value) && !hasEnvReference(value);
  const namedSecret = secretKey !== undefined && looksSecretKey(secretKey);
  if (token === undefined && !bearer && !(namedSecret && isLiteralSecretValue(value))) return;
  const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
  const name =
    path[0] === 'env' && typeof path[1] === 'string' && /^[A-Za-z_]\w*$/.test(path[1])
      ? path[1]
      : 'NAME';
  // `${VAR}` / `$VAR` are other tools' syntax; say so instead of a generic hint.
  const foreign = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(value.trim());
  const hint =
    foreign?.[1] !== undefined
      ? `write "\${env:${foreign[1]}}" (twofold's reference syntax) instead`
      : `write "${scheme}\${env:${name}}" instead and set ${name} in the environment`;
  return {
    path,
    kind: 'literal-secret',
    what:
      token ?? (bearer && !namedSecret ? 'a literal credential' : 'a literal value for a secret'),
    hint,
    redacted:
      token !== undefined && !namedSecret && !bearer ? redactTokens(value) : redactWhole(value),
  };
}

/** The first `${env:…` that is not a complete, well-formed reference. */
function malformedReference(value: string): string | undefined {
  const wellFormed = new Set<number>();
  for (const m of value.matchAll(ENV_REFERENCE)) wellFormed.add(m.index);
  for (const m of value.matchAll(REFERENCE_START)) {
    if (!wellFormed.has(m.index)) return value.slice(m.index, m.index + 24).split('}')[0];
  }
  return undefined;
}

/** URL userinfo passwords and secret-named query parameters. */
function inspectUrl(url: string, path: PropertyKey[]): SecretFinding | undefined {
  const malformed = inspectValue(path, url, undefined);
  if (malformed?.kind === 'malformed-reference') return malformed;
  let redacted = url;
  let what: string | undefined;
  const userinfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/@?#]*)@/i.exec(url);
  const password = userinfo?.[2]?.split(':').slice(1).join(':');
  if (
    userinfo !== null &&
    password !== undefined &&
    password !== '' &&
    isLiteralSecretValue(password)
  ) {
    what = 'a password in the URL';
    const user = userinfo[2]?.split(':')[0] ?? '';
    redacted = `${userinfo[1]}${user}:***@${url.slice(userinfo[0].length)}`;
  }
  const queryStart = redacted.indexOf('?');
  if (queryStart >= 0) {
    const [query = '', fragment] = redacted.slice(queryStart + 1).split('#');
    const params = query.split('&').map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const key = decodeURIComponentSafe(pair.slice(0, eq));
      const value = pair.slice(eq + 1);
      if (!looksSecretKey(key) || !isLiteralSecretValue(decodeURIComponentSafe(value))) return pair;
      what ??= `a literal "${key}" query parameter`;
      return `${pair.slice(0, eq)}=***`;
    });
    redacted = `${redacted.slice(0, queryStart)}?${params.join('&')}${fragment === undefined ? '' : `#${fragment}`}`;
  }
  const token = tokenFormatIn(url.replace(ENV_REFERENCE, ''));
  if (token !== undefined) {
    what ??= token;
    redacted = redactTokens(redacted);
  }
  if (what === undefined) return undefined;
  return {
    path,
    kind: 'literal-secret',
    what,
    hint: `use "${REFERENCE_EXAMPLE}" in its place`,
    redacted,
  };
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Whether `value` is an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Whether a URL that may hold `${env:NAME}` references can be an http(s) URL: a reference may
 * stand for a part of it, or (at the start) for the whole URL, checked once resolved.
 */
export function isHttpUrlTemplate(value: string): boolean {
  if (value.startsWith('${env:')) return true;
  return isHttpUrl(value.replace(ENV_REFERENCE, 'x'));
}
