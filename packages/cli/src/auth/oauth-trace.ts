/**
 * `--verbose` for authorization: each request the OAuth client makes (metadata, registration,
 * token, refresh, the login probe) and its answer, one line each, with every credential masked:
 * `Authorization`/`DPoP`/cookie headers, `code`, `code_verifier`, tokens, client secrets and
 * assertions, in query strings, forms and JSON alike.
 */
import { isCredentialHeader, maskBody, maskHeader, redactUrl } from '../cli/redact';

/** Bodies longer than this are cut in the trace. */
const MAX_SHOWN = 2000;

/** `inner`, writing each exchange to `write`. */
export function tracedFetch(inner: typeof fetch, write: (line: string) => void): typeof fetch {
  let count = 0;
  return async (input, init) => {
    const n = ++count;
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    const shown = [...headers]
      .filter(([name]) => isCredentialHeader(name))
      .map(([name, value]) => `${name}: ${maskHeader(name, value)}`);
    const body = bodyText(init?.body);
    write(
      `# oauth ⇢${n} ${method} ${redactUrl(url)}${shown.length ? ` [${shown.join('; ')}]` : ''}${
        body === undefined ? '' : ` ${cut(maskBody(body, headers.get('content-type')))}`
      }`,
    );
    const response = await inner(input, init);
    write(`# oauth ⇠${n} ${response.status} ${await responseText(response)}`);
    return response;
  };
}

function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  return '(a body)';
}

/** JSON answers (metadata, tokens, errors) masked; streams and pages only named. */
async function responseText(response: Response): Promise<string> {
  const type = response.headers.get('content-type');
  const challenge = response.headers.get('www-authenticate');
  const head = challenge === null ? '' : `[www-authenticate: ${challenge}] `;
  if (!type?.toLowerCase().includes('json')) return `${head}${type ?? ''}`.trim();
  const text = await response
    .clone()
    .text()
    .catch(() => '');
  return `${head}${cut(maskBody(text, type))}`;
}

function cut(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
