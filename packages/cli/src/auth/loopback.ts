/**
 * The loopback redirect listener of the authorization code flow (RFC 8252 §7.3): an HTTP server
 * on 127.0.0.1 on a port the system picks, serving `/callback`. The browser lands there with the
 * authorization response; the listener hands the full URL to the flow (which checks `state` and
 * `iss` before the code goes anywhere) and shows a page saying the tab can be closed.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening redirect endpoint. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string;
  /** The next redirect that reaches `/callback` (one that came before is not lost). */
  next(signal: AbortSignal): Promise<URL>;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

const PATH = '/callback';

/** Starts listening on `127.0.0.1:0`. */
export async function startLoopbackRedirect(): Promise<LoopbackRedirect> {
  const arrived: URL[] = [];
  let waiter: ((url: URL) => void) | undefined;
  let served = 0;
  let origin = 'http://127.0.0.1';
  const server = createServer((request, response) => {
    // The path as sent, on this listener's origin (never a host the request names).
    const text = `${origin}${request.url ?? '/'}`;
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url === undefined || request.method !== 'GET' || url.pathname !== PATH) {
      page(response, 404, 'Not found', 'This address only receives the twofold login.');
      return;
    }
    if (served++ > 0) {
      page(response, 409, 'Already done', 'This login already finished. You can close this tab.');
      return;
    }
    const error = url.searchParams.get('error');
    if (error === null) {
      page(
        response,
        200,
        'Logged in',
        'twofold got the authorization. You can close this tab and return to the terminal.',
      );
    } else {
      page(
        response,
        400,
        'Not logged in',
        `The authorization server said: ${error}. You can close this tab; the terminal says more.`,
      );
    }
    if (waiter) waiter(url);
    else arrived.push(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUri = `${origin}${PATH}`;
  return {
    redirectUri,
    next: (signal) =>
      new Promise<URL>((resolve, reject) => {
        const early = arrived.shift();
        if (early) return resolve(early);
        if (signal.aborted) return reject(signal.reason);
        const onAbort = () => {
          waiter = undefined;
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter = (url) => {
          waiter = undefined;
          signal.removeEventListener('abort', onAbort);
          resolve(url);
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function page(response: ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>twofold: ${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>\n`;
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The page's own URL holds the code: no referrer, no scripts, nothing loaded.
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'",
    connection: 'close',
  });
  response.end(body);
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}
