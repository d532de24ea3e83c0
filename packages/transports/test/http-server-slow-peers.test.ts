/**
 * Peers that never finish a request, driven over raw sockets (node:net) against `serve`: headers
 * dripped forever, a chunked body that never ends, an oversized body still being sent. Each is
 * cut off — the test waits for the socket's 'close', never for a duration — with small
 * configured bounds so the wait is short; a well-behaved connection stays alive meanwhile.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../src/http-server/index';
import type { HttpServerCoreOptions } from '../src/http-server/types';
import { type ServedEndpoint, type ServeOptions, serve } from '../src/node';
import { modernHeaders, modernRequest } from './http-server-support';

// Bounds a hang only: every wait below is for an event.
const TEST_TIMEOUT_MS = 20_000;

let endpoint: ServedEndpoint | undefined;

afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function start(
  core: Omit<HttpServerCoreOptions, 'modern'> = {},
  options: ServeOptions = {},
): Promise<URL> {
  const handler = createHttpHandler({
    ...core,
    modern: async (message, exchange) => {
      if (!('id' in message)) return;
      await exchange.respond({ jsonrpc: '2.0', id: message.id, result: { ok: true } });
    },
  });
  endpoint = await serve(handler, options);
  return endpoint.url;
}

/** A raw connection: what arrived so far, and a promise of the socket's close. */
interface RawConnection {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
  /** Resolves once `text` has arrived `count` times (or the socket closed). */
  until(text: string, count?: number): Promise<void>;
  /** Writes `chunk` every few ms until the socket closes. */
  drip(chunk: string): void;
}

async function open(url: URL): Promise<RawConnection> {
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  const waiters: Array<() => void> = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  // Writes after the server hung up fail with EPIPE or ECONNRESET: that is the point.
  socket.on('error', () => undefined);
  let timer: ReturnType<typeof setInterval> | undefined;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      for (const wake of waiters.splice(0)) wake();
      resolve();
    }),
  );
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    socket,
    received: () => received,
    closed,
    until: async (text, count = 1) => {
      while (received.split(text).length <= count && !socket.destroyed) {
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    drip: (chunk) => {
      timer = setInterval(() => {
        if (socket.writable) socket.write(chunk);
      }, 5);
    },
  };
}

const message = modernRequest('tools/list');
const body = JSON.stringify(message);

/** A POST's request line and headers (without the blank line), with `extra` headers. */
function head(url: URL, extra: Record<string, string>): string {
  const headers = { ...modernHeaders(message), host: url.host, ...extra };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `POST / HTTP/1.1\r\n${lines.join('\r\n')}\r\n`;
}

/** The status line and headers of the first response in `text`. */
function responseHead(text: string): string {
  return text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();
}

describe('slow and endless requests', () => {
  it(
    'cuts off a peer that drips its headers: 408 and the connection closed',
    async () => {
      const url = await start({}, { headersTimeoutMs: 100, requestTimeoutMs: 10_000 });
      const raw = await open(url);
      raw.socket.write(head(url, {}));
      raw.drip('x-drip: 1\r\n');
      await raw.closed;
      expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'cuts off a chunked body that never ends with the core bound: 408, a JSON-RPC error, close',
    async () => {
      const url = await start({ bodyTimeoutMs: 100 }, { requestTimeoutMs: 0 });
      const raw = await open(url);
      raw.socket.write(`${head(url, { 'transfer-encoding': 'chunked' })}\r\n`);
      raw.drip('1\r\n \r\n');
      await raw.closed;
      const text = raw.received();
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(responseHead(text)).toContain('connection: close');
      expect(text).toContain('"code":-32600');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "cuts off a chunked body that never ends with node:http's request bound",
    async () => {
      const url = await start(
        { bodyTimeoutMs: 0 },
        { headersTimeoutMs: 100, requestTimeoutMs: 200 },
      );
      const raw = await open(url);
      raw.socket.write(`${head(url, { 'transfer-encoding': 'chunked' })}\r\n`);
      raw.drip('1\r\n \r\n');
      await raw.closed;
      expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    },
    TEST_TIMEOUT_MS,
  );

  it('refuses timeouts node:http cannot honour', async () => {
    const handler = createHttpHandler({ modern: () => undefined });
    await expect(serve(handler, { headersTimeoutMs: 500, requestTimeoutMs: 100 })).rejects.toThrow(
      RangeError,
    );
    await expect(serve(handler, { headersTimeoutMs: -1 })).rejects.toThrow(RangeError);
    expect(() => createHttpHandler({ modern: () => undefined, bodyTimeoutMs: -1 })).toThrow(
      RangeError,
    );
  });
});

describe('oversized bodies', () => {
  it(
    'answers a declared oversized body with 413 and closes, without reading what follows',
    async () => {
      const url = await start({ maxBodyBytes: 1024 });
      const raw = await open(url);
      raw.socket.write(`${head(url, { 'content-length': String(64 * 1024 * 1024) })}\r\n`);
      raw.drip('x'.repeat(1024));
      await raw.closed;
      const text = raw.received();
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(responseHead(text)).toContain('connection: close');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'answers a chunked body that grows past the limit with 413 and closes',
    async () => {
      const url = await start({ maxBodyBytes: 1024 });
      const raw = await open(url);
      raw.socket.write(`${head(url, { 'transfer-encoding': 'chunked' })}\r\n`);
      raw.drip(`400\r\n${'x'.repeat(1024)}\r\n`);
      await raw.closed;
      const text = raw.received();
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(responseHead(text)).toContain('connection: close');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'closes after any refusal that leaves the body unread (415 here)',
    async () => {
      const url = await start();
      const raw = await open(url);
      const extra = { 'content-type': 'text/plain', 'content-length': String(1024 * 1024) };
      raw.socket.write(`${head(url, extra)}\r\n`);
      raw.drip('x'.repeat(1024));
      await raw.closed;
      const text = raw.received();
      expect(text).toMatch(/^HTTP\/1\.1 415 /);
      expect(responseHead(text)).toContain('connection: close');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps a well-behaved connection alive for its next request',
    async () => {
      const url = await start({ maxBodyBytes: 1024, bodyTimeoutMs: 100 });
      const raw = await open(url);
      const request = `${head(url, { 'content-length': String(Buffer.byteLength(body)) })}\r\n${body}`;
      raw.socket.write(request);
      await raw.until('"result"');
      expect(responseHead(raw.received())).not.toContain('connection: close');
      raw.socket.write(request);
      await raw.until('HTTP/1.1 200 OK', 2);
      expect(raw.socket.destroyed).toBe(false);
      raw.socket.end();
      await raw.closed;
    },
    TEST_TIMEOUT_MS,
  );
});
