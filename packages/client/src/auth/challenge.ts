/**
 * Reading `WWW-Authenticate` (RFC 9110 §11.6.1): a list of challenges, each a scheme with
 * `name=value` parameters (tokens or quoted strings). oauth4webapi parses these only inside its
 * own resource requests, so the MCP transports' responses are read here.
 */

/** One challenge: its scheme (lower-cased) and parameters (names lower-cased). */
export interface AuthChallenge {
  scheme: string;
  params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/** Every challenge of a header value; malformed tails are dropped, never thrown. */
export function parseChallenges(header: string | null | undefined): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let rest = header ?? '';
  let current: { scheme: string; params: Record<string, string> } | undefined;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (name === undefined) break;
    rest = rest.slice(name.length);
    const afterSpace = rest.replace(/^\s+/, '');
    if (afterSpace.startsWith('=') && current !== undefined && !afterSpace.startsWith('==')) {
      const value = readValue(afterSpace.slice(1).replace(/^\s+/, ''));
      if (value === undefined) break;
      current.params[name.toLowerCase()] = value.value;
      rest = value.rest;
      continue;
    }
    // A token not followed by `=` starts a new challenge (its scheme).
    current = { scheme: name.toLowerCase(), params: {} };
    challenges.push(current);
    rest = skipToken68(afterSpace);
  }
  return challenges;
}

/** The `Bearer` (or `DPoP`) challenge's parameters, when there is one. */
export function oauthChallenge(header: string | null | undefined): AuthChallenge | undefined {
  const all = parseChallenges(header);
  return all.find((c) => c.scheme === 'bearer') ?? all.find((c) => c.scheme === 'dpop');
}

/** Scopes of a challenge's `scope` parameter (space-separated), empty when absent. */
export function challengeScopes(challenge: AuthChallenge | undefined): string[] {
  return splitScopes(challenge?.params.scope);
}

/** A space-separated scope string as a list without empties. */
export function splitScopes(scope: string | undefined): string[] {
  return (scope ?? '').split(' ').filter((s) => s.length > 0);
}

function readValue(text: string): { value: string; rest: string } | undefined {
  if (!text.startsWith('"')) {
    const token = TOKEN.exec(text)?.[0];
    return token === undefined ? undefined : { value: token, rest: text.slice(token.length) };
  }
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '\\' && i + 1 < text.length) {
      value += text[++i];
    } else if (char === '"') {
      return { value, rest: text.slice(i + 1) };
    } else {
      value += char;
    }
  }
  return undefined;
}

/** A token68 credential after a scheme (`Basic abc==`) carries no parameters: skip it. */
function skipToken68(text: string): string {
  const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(text)?.[0];
  if (token68 === undefined) return text;
  // `scheme name=value` starts parameters, not a token68.
  if (/^[A-Za-z0-9\-._~+/]+\s*=[^=]/.test(text)) return text;
  return text.slice(token68.length);
}
