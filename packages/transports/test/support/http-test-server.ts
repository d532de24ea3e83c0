/**
 * A scripted `node:http` server on 127.0.0.1 for the HTTP client tests: each test decides per
 * request what goes back (statuses, JSON, HTML pages, SSE with any chunking, truncated streams,
 * silence). It records requests and counts open connections so tests can assert that a client
 * left nothing behind.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { JsonRpcMessage, MessageContext, Transport } from '@twofold/protocol/experimental';
import { afterEach, beforeEach, expect } from 'vitest';

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body, when it was JSON. */
  json: unknown;
  /** Resolves when the response is over: finished, or the client went away. */
  closed: Promise<void>;
  /** Whether the client went away before the response finished. */
  abandoned(): boolean;
}

/** Answers one request. */
export type Script = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  origin: string;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** Replaces the script that answers requests. */
  handle(script: Script): void;
  /** Resolves with request number `index` (0-based) once it has arrived. */
  request(index: number): Promise<RecordedRequest>;
  openConnections(): number;
  /** Resolves when no connection is open; rejects, naming the count, after `timeoutMs`. */
  idle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server on an ephemeral loopback port. */
export async function startTestServer(script: Script = notFound): Promise<TestServer> {
  let current = script;
  const requests: RecordedRequest[] = [];
  const arrivals: Array<() => void> = [];
  const sockets = new Set<Socket>();
  let idleWaiters: Array<() => void> = [];

  const server = createServer((req, res) => {
    void record(req, res).then(async (recorded) => {
      requests.push(recorded);
      for (const wake of arrivals.splice(0)) wake();
      try {
        await current(recorded, res);
      } catch (error) {
        if (!res.headersSent) res.writeHead(599);
        res.end(String(error));
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) for (const wake of idleWaiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    handle(next) {
      current = next;
    },
    async request(index) {
      while (requests.length <= index) await new Promise<void>((r) => arrivals.push(r));
      return requests[index] as RecordedRequest;
    },
    openConnections: () => sockets.size,
    idle(timeoutMs = 3000) {
      if (sockets.size === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${sockets.size} connection(s) still open after ${timeoutMs} ms`)),
          timeoutMs,
        );
        idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async close() {
      idleWaiters = [];
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function record(req: IncomingMessage, res: ServerResponse): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  let json: unknown;
  try {
    json = body === '' ? undefined : JSON.parse(body);
  } catch {
    json = undefined;
  }
  const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
  return {
    method: req.method ?? '',
    url: req.url ?? '',
    headers: req.headers,
    body,
    json,
    closed,
    abandoned: () => !res.writableFinished,
  };
}

/** The default script. */
export function notFound(_request: RecordedRequest, response: ServerResponse): void {
  response.writeHead(404).end();
}

/** Answers with a JSON body. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(text);
}

/** Answers with any body and content type (HTML error pages, text/plain, …). */
export function sendText(
  response: ServerResponse,
  status: number,
  contentType: string | undefined,
  text: string,
  headers: Record<string, string> = {},
): void {
  const all = contentType === undefined ? headers : { 'Content-Type': contentType, ...headers };
  response.writeHead(status, all).end(text);
}

/** Fields of one SSE event as the test writes it. */
export interface SseFields {
  id?: string;
  event?: string;
  data?: string | unknown;
  retry?: number;
}

/** An SSE response being written. */
export interface SseWriter {
  /** Writes raw text and waits until it was handed to the socket. */
  raw(text: string): Promise<void>;
  /** Writes one event (`data` objects are JSON-encoded). */
  event(fields: SseFields): Promise<void>;
  /** Writes `text` in chunks of `size` characters, yielding between them. */
  chunked(text: string, size: number): Promise<void>;
  /** Ends the stream cleanly. */
  end(): void;
}

/** Starts an SSE response. */
export function openSse(response: ServerResponse, headers: Record<string, string> = {}): SseWriter {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    ...headers,
  });
  response.flushHeaders();
  const raw = (text: string) =>
    new Promise<void>((resolve) => {
      if (response.writableEnded || response.destroyed) resolve();
      else response.write(text, () => resolve());
    });
  return {
    raw,
    event: (fields) => raw(formatEvent(fields)),
    async chunked(text, size) {
      for (let at = 0; at < text.length; at += size) {
        await raw(text.slice(at, at + size));
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    end: () => response.end(),
  };
}

/** The text of one SSE event. */
export function formatEvent(fields: SseFields): string {
  let text = '';
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  if (fields.event !== undefined) text += `event: ${fields.event}\n`;
  if (fields.retry !== undefined) text += `retry: ${fields.retry}\n`;
  if (fields.data !== undefined) {
    const data = typeof fields.data === 'string' ? fields.data : JSON.stringify(fields.data);
    for (const line of data.split('\n')) text += `data: ${line}\n`;
  }
  return `${text}\n`;
}

/** What a client transport reported, with waits for what has not happened yet. */
export interface Observed {
  messages: Array<{ message: JsonRpcMessage; context: MessageContext | undefined }>;
  errors: Error[];
  closes: number;
  /** Resolves with message number `index` (0-based) once delivered. */
  message(index: number): Promise<{ message: JsonRpcMessage; context: MessageContext | undefined }>;
  /** Resolves with error number `index` (0-based) once reported. */
  error(index: number): Promise<Error>;
  /** Resolves once `onclose` ran. */
  closed(): Promise<void>;
}

/** Installs recording callbacks on a transport. */
export function observe(transport: Transport): Observed {
  let wake: Array<() => void> = [];
  const changed = () => {
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
  };
  const until = async <T>(ready: () => T | undefined): Promise<T> => {
    for (let value = ready(); ; value = ready()) {
      if (value !== undefined) return value;
      await new Promise<void>((resolve) => wake.push(resolve));
    }
  };
  const observed: Observed = {
    messages: [],
    errors: [],
    closes: 0,
    message: (index) => until(() => observed.messages[index]),
    error: (index) => until(() => observed.errors[index]),
    closed: () => until(() => (observed.closes > 0 ? true : undefined)).then(() => undefined),
  };
  transport.onmessage = (message, context) => {
    observed.messages.push({ message, context });
    changed();
  };
  transport.onerror = (error) => {
    observed.errors.push(error);
    changed();
  };
  transport.onclose = () => {
    observed.closes++;
    changed();
  };
  return observed;
}

/**
 * How many timers keep this process alive (to show a transport left none behind), counted after
 * the callbacks already due have run.
 */
export async function pendingTimers(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

/**
 * Asserts no more timers are active than `before`. The count is process-wide, so timers of
 * other work finishing at the same moment can lag a little: poll (with `setImmediate`, which
 * adds no timer of its own) for up to 2 s for the count to come down. A timer the transport
 * really leaks never does.
 */
export async function expectNoTimerLeak(before: number): Promise<void> {
  const deadline = performance.now() + 2000;
  let count = await pendingTimers();
  while (count > before && performance.now() < deadline) count = await pendingTimers();
  expect(count).toBeLessThanOrEqual(before);
}

/**
 * Registers each test's server and the leak checks every HTTP client test runs: after the
 * client closes, no socket is left on the server and no timer in this process.
 */
export function useTestServer(hooks: {
  onServer: (server: TestServer) => void;
  closeClient: () => Promise<void> | undefined;
}): void {
  let server: TestServer | undefined;
  let timersBefore = 0;
  beforeEach(async () => {
    timersBefore = await pendingTimers();
    server = await startTestServer();
    hooks.onServer(server);
  });
  afterEach(async () => {
    await hooks.closeClient();
    if (!server) return;
    await server.idle();
    expect(server.openConnections()).toBe(0);
    await expectNoTimerLeak(timersBefore);
    await server.close();
  });
}
