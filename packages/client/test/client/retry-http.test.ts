/**
 * Modern requests whose HTTP exchange failed are sent again when that is safe: always when the
 * request never arrived (503, connection refused), after a 502 or a broken connection only when
 * running it twice is harmless (reads, and tools annotated `readOnlyHint` / `idempotentHint`).
 */
import type { IncomingMessage } from 'node:http';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { shouldRetry } from '../../src/modern/retry';
import { httpServer } from '../../src/targets/http';
import { connectClient, rejectionOf, useClientCleanups } from '../support/client-harness';
import { startHttp } from '../support/era-http';

useClientCleanups();

const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
};
const TOOLS = [
  { name: 'lookup', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'upsert', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
  { name: 'charge', inputSchema: { type: 'object' } },
];

type Failure = 502 | 503 | 'reset';

async function bodyOf(req: IncomingMessage): Promise<{ id?: unknown; method?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A modern endpoint that fails the next requests of a method (or tool) as `failNext` says,
 * and counts every attempt it saw.
 */
async function flakyEndpoint() {
  const failNext = new Map<string, Failure[]>();
  const attempts = new Map<string, number>();
  const server = await startHttp(async (req, res) => {
    const message = await bodyOf(req);
    const key = req.headers['mcp-name'] ?? message.method ?? '';
    const name = Array.isArray(key) ? key.join() : key;
    attempts.set(name, (attempts.get(name) ?? 0) + 1);
    const failure = failNext.get(name)?.shift();
    if (failure === 'reset') return void req.socket.destroy();
    if (failure !== undefined) return void res.writeHead(failure).end('upstream trouble');
    const result =
      message.method === 'server/discover'
        ? DISCOVER
        : message.method === 'tools/list'
          ? { resultType: 'complete', tools: TOOLS }
          : { resultType: 'complete', content: [{ type: 'text', text: `ran ${name}` }] };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  const connect = async (options = {}) => {
    const { client } = await connectClient(httpServer({ url: server.url('/') }), {
      era: 'modern',
      retry: { delayMs: 1 },
      ...options,
    });
    await client.listTools();
    return client;
  };
  return { failNext, attempts, connect };
}

describe('retrying modern requests', () => {
  it('sends a read and a call of an annotated tool again after 502 and a reset', async () => {
    const flaky = await flakyEndpoint();
    const client = await flaky.connect();
    flaky.failNext.set('tools/list', [502, 'reset']);
    flaky.failNext.set('lookup', [502]);
    flaky.failNext.set('upsert', ['reset']);

    expect((await client.listTools(undefined, { cache: 'bypass' })).tools).toHaveLength(3);
    expect((await client.callTool('lookup')).content).toEqual([
      { type: 'text', text: 'ran lookup' },
    ]);
    expect((await client.callTool('upsert')).content).toEqual([
      { type: 'text', text: 'ran upsert' },
    ]);
    expect(flaky.attempts.get('tools/list')).toBe(4);
    expect(flaky.attempts.get('lookup')).toBe(2);
    expect(flaky.attempts.get('upsert')).toBe(2);
  });

  it('does not repeat a call that may have run, unless it never arrived (503)', async () => {
    const flaky = await flakyEndpoint();
    const client = await flaky.connect();
    flaky.failNext.set('charge', [502]);
    const failure = await rejectionOf(client.callTool('charge'));
    expect(failure).toBeInstanceOf(LocalError);
    expect((failure as LocalError).code).toBe(LocalErrorCode.HttpError);
    expect((failure as LocalError).details?.status).toBe(502);
    expect(flaky.attempts.get('charge')).toBe(1);

    flaky.failNext.set('charge', [503]);
    expect((await client.callTool('charge')).content).toEqual([
      { type: 'text', text: 'ran charge' },
    ]);
    expect(flaky.attempts.get('charge')).toBe(3);
  });

  it('gives up after the configured retries, and never retries with `retry: false`', async () => {
    const flaky = await flakyEndpoint();
    const client = await flaky.connect({ retry: { attempts: 1, delayMs: 1 } });
    flaky.failNext.set('lookup', [503, 503, 503]);
    const failure = (await rejectionOf(client.callTool('lookup'))) as LocalError;
    expect(failure.details?.status).toBe(503);
    expect(flaky.attempts.get('lookup')).toBe(2);

    const strict = await flaky.connect({ retry: false });
    flaky.failNext.set('tools/list', [503]);
    const refused = (await rejectionOf(
      strict.listTools(undefined, { cache: 'bypass' }),
    )) as LocalError;
    expect(refused.details?.status).toBe(503);
  });

  it('counts a refused connection as never arrived, whatever the method', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const failed = new LocalError(LocalErrorCode.HttpError, 'POST tools/call failed', {
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    expect(shouldRetry(failed, false)).toBe(true);
    const reset = new LocalError(LocalErrorCode.HttpError, 'POST tools/call failed', {
      cause: new TypeError('fetch failed', { cause: new Error('other side closed') }),
    });
    expect(shouldRetry(reset, false)).toBe(false);
    expect(shouldRetry(reset, true)).toBe(true);
    const timeout = new LocalError(LocalErrorCode.RequestTimeout, 'timed out');
    expect(shouldRetry(timeout, true)).toBe(false);
  });
});
