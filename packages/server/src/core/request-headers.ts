/**
 * The HTTP request headers handlers see (`context.headers`): every header but the credentials.
 * Tokens reach handlers only as the verified `context.auth`, so a handler that forwards its
 * headers cannot pass a token through (the spec forbids it).
 */

const WITHHELD = new Set(['authorization', 'proxy-authorization']);

/** A frozen record of `headers` (lower-case names) without credentials. */
export function visibleHeaders(
  headers: Headers | Readonly<Record<string, string>> | undefined,
): Readonly<Record<string, string>> | undefined {
  if (headers === undefined) return undefined;
  const visible: Record<string, string> = {};
  const keep = (value: string, name: string) => {
    const lower = name.toLowerCase();
    if (!WITHHELD.has(lower)) visible[lower] = value;
  };
  if (headers instanceof Headers) headers.forEach(keep);
  else for (const [name, value] of Object.entries(headers)) keep(value, name);
  return Object.freeze(visible);
}
