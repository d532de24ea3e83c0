/**
 * A recording proxy on 127.0.0.1: forwards every request to the real server and keeps a copy
 * of it (method, path, headers, body), so the raw load can send exactly the requests a client
 * sends. Responses, SSE streams included, are piped back as they arrive.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** One request as the client sent it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Headers that belong to one connection, not to the request. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
]);

function requestHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/** A running recorder. */
export interface Recorder {
  /** The proxy's URL, with the target's path. */
  url: string;
  recorded: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a recording proxy in front of `target` (an endpoint URL). */
export async function startRecorder(target: string): Promise<Recorder> {
  const upstream = new URL(target);
  const recorded: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = requestHeaders(req);
    recorded.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers, body });
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      const answer = await request(new URL(req.url ?? '/', upstream.origin), {
        method: (req.method ?? 'GET') as 'GET',
        headers: { ...headers, host: upstream.host },
        body: body === '' ? undefined : body,
        signal: abort.signal,
      });
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      }
      res.writeHead(answer.statusCode, out);
      // An SSE stream may send nothing for a while: its client still needs the headers now.
      res.flushHeaders();
      for await (const chunk of answer.body) res.write(chunk);
      res.end();
    } catch {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    recorded,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
