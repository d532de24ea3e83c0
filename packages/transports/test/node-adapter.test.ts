/**
 * The node:http adapter: web Request/Response conversion with streaming both ways, the
 * disconnect signal, and the Host defaults of `serve`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { serve, toNodeListener } from '../src/node';
import { deferred } from './http-server-support';

describe('toNodeListener', () => {
  it('streams a request body in and a large response body out', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const chunks = 128; // 8 MiB
    const server = createServer(
      toNodeListener(async (request) => {
        let received = 0;
        for await (const part of request.body ?? []) received += (part as Uint8Array).byteLength;
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent++ < chunks) controller.enqueue(chunk);
            else controller.close();
          },
        });
        return new Response(body, { headers: { 'x-received': String(received) } });
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const upload = new Uint8Array(3 * 1024 * 1024);
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: upload });
    expect(response.headers.get('x-received')).toBe(String(upload.byteLength));
    let total = 0;
    for await (const part of response.body ?? []) total += (part as Uint8Array).byteLength;
    expect(total).toBe(chunk.byteLength * chunks);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  it('passes method, URL, headers and repeated Set-Cookie through', async () => {
    const seen = deferred<Request>();
    const server = createServer(
      toNodeListener(async (request) => {
        seen.resolve(request);
        const headers = new Headers();
        headers.append('set-cookie', 'a=1');
        headers.append('set-cookie', 'b=2');
        return new Response('ok', { status: 201, headers });
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const response = await undiciRequest(`http://127.0.0.1:${port}/mcp?x=1`, {
      method: 'PUT',
      headers: { 'x-custom': 'v' },
      body: 'hi',
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(await response.body.text()).toBe('ok');
    const request = await seen.promise;
    expect(request.method).toBe('PUT');
    expect(new URL(request.url).pathname + new URL(request.url).search).toBe('/mcp?x=1');
    expect(request.headers.get('x-custom')).toBe('v');
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  it('answers 500 and reports the error when the handler throws', async () => {
    const errors: Error[] = [];
    const endpoint = await serve(
      async () => {
        throw new Error('handler failed');
      },
      { onerror: (error) => errors.push(error) },
    );
    const response = await fetch(endpoint.url);
    expect(response.status).toBe(500);
    await response.text();
    expect(errors.map((e) => e.message)).toEqual(['handler failed']);
    await endpoint.close();
  });

  it('aborts the request signal when the client disconnects mid-response', async () => {
    await disconnectMidResponse();
  });

  it('aborts the signal of a Request that was garbage-collected while its response streams', async () => {
    // The handler keeps only the signal (a listener on it), not the Request that follows ours.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    await disconnectMidResponse(() => {
      for (let i = 0; i < 3; i++) gc();
    });
  });
});

describe('serve', () => {
  it('binds 127.0.0.1 on a free port and checks Host against the loopback names', async () => {
    const endpoint = await serve(async () => new Response('ok'));
    expect(endpoint.url.hostname).toBe('127.0.0.1');
    const { port } = endpoint.url;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const response = await undiciRequest(endpoint.url, { headers: { host } });
      expect(response.statusCode, host).toBe(200);
      await response.body.dump();
    }
    for (const host of [`evil.example:${port}`, 'localhost:1', 'localhost']) {
      const response = await undiciRequest(endpoint.url, { headers: { host } });
      expect(response.statusCode, host).toBe(403);
      await response.body.dump();
    }
    await endpoint.close();
  });

  it('takes an explicit allowedHosts list, or none with false', async () => {
    const listed = await serve(async () => new Response('ok'), { allowedHosts: ['mcp.example'] });
    const ok = await undiciRequest(listed.url, { headers: { host: 'mcp.example' } });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
    const unlisted = await undiciRequest(listed.url);
    expect(unlisted.statusCode).toBe(403);
    await unlisted.body.dump();
    await listed.close();

    const open = await serve(async () => new Response('ok'), { allowedHosts: false });
    const any = await undiciRequest(open.url, { headers: { host: 'anything.example' } });
    expect(any.statusCode).toBe(200);
    await any.body.dump();
    await open.close();
  });
});

/**
 * Serves responses that never end, reads the start of one, runs `meanwhile`, then disconnects;
 * settles once the handler's request signal has aborted.
 */
async function disconnectMidResponse(meanwhile: () => void = () => {}): Promise<void> {
  const aborted = deferred<void>();
  const endpoint = await serve(async (request) => {
    request.signal.addEventListener('abort', () => aborted.resolve());
    // A body that never ends on its own.
    return new Response(
      new ReadableStream({ start: (c) => c.enqueue(new Uint8Array([0x3a, 0x0a])) }),
    );
  });
  const client = new AbortController();
  const response = await fetch(endpoint.url, { signal: client.signal });
  await response.body?.getReader().read();
  meanwhile();
  client.abort();
  await aborted.promise;
  await endpoint.close();
}
