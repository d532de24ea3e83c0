/**
 * The scripted user agent of the test authorization server (test-only): follows redirects with a
 * cookie jar as a browser would, answers each interaction page with a form POST, and stops at
 * the first redirect that leaves the authorization server, which it returns unfetched.
 */

/** Redirects a real flow takes: authorize, login, resume, consent, resume, redirect_uri. */
const MAX_HOPS = 12;
/** Bounds each request, so that a stuck server fails the test rather than hanging it. */
const REQUEST_TIMEOUT_MS = 10_000;

interface Cookie {
  name: string;
  value: string;
  path: string;
}

/**
 * Follows `start` on the server at `issuer`; `answer` fills the form posted to each
 * `/interaction/<uid>` page. Resolves with the first URL off the server's origin.
 */
export async function followRedirects(
  start: URL,
  issuer: string,
  answer: (form: URLSearchParams) => void,
): Promise<URL> {
  const origin = new URL(issuer).origin;
  const jar = new Map<string, Cookie>();
  let url = start;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (url.origin !== origin) return url;
    const interaction = /^\/interaction\/[^/]+$/.test(url.pathname);
    const form = new URLSearchParams();
    if (interaction) answer(form);
    const response = await fetch(url, {
      method: interaction ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(jar, url.pathname),
        ...(interaction ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(interaction ? { body: form.toString() } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    for (const line of response.headers.getSetCookie()) store(jar, line);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) {
      const body = await response.text();
      throw new Error(`authorization stopped at ${url.pathname} (${response.status}): ${body}`);
    }
    await response.body?.cancel();
    url = new URL(location, url);
  }
  throw new Error(`authorization did not leave the server after ${MAX_HOPS} redirects`);
}

function cookieHeader(jar: Map<string, Cookie>, path: string): string {
  return [...jar.values()]
    .filter((cookie) => path === cookie.path || path.startsWith(withSlash(cookie.path)))
    .map(({ name, value }) => `${name}=${value}`)
    .join('; ');
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/** Keeps or (when expired) drops one `Set-Cookie`; cookies are keyed by name and path. */
function store(jar: Map<string, Cookie>, line: string): void {
  const [pair = '', ...attributes] = line.split(';');
  const at = pair.indexOf('=');
  const name = pair.slice(0, at).trim();
  const value = pair.slice(at + 1).trim();
  let path = '/';
  let expired = value === '';
  for (const attribute of attributes) {
    const [key = '', raw = ''] = attribute.split('=').map((part) => part.trim());
    const lower = key.toLowerCase();
    if (lower === 'path') path = raw || '/';
    if (lower === 'max-age' && Number(raw) <= 0) expired = true;
    if (lower === 'expires' && Date.parse(raw) <= Date.now()) expired = true;
  }
  const key = `${name};${path}`;
  if (expired) jar.delete(key);
  else jar.set(key, { name, value, path });
}
