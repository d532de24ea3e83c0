/**
 * A response over `maxResponseBytes` over modern Streamable HTTP fails its call at once with
 * `MESSAGE_TOO_LARGE` naming the limit, whether it came as a JSON body or as an SSE event
 * (then when its stream ends without another answer); an oversized progress event on the same
 * stream fails nothing. The request timeouts are far beyond what the tests take.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { httpServer } from '../../src/targets/http';
import { connectClient, rejectionOf, useClientCleanups } from '../support/client-harness';
import { startHttp } from '../support/era-http';

useClientCleanups();

const LIMIT = 4096;
const PATIENCE_MS = 25_000;
const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: 'public',
};

const big = (id: unknown) =>
  JSON.stringify({
    result: { content: [{ type: 'text', text: 'x'.repeat(10_000) }] },
    jsonrpc: '2.0',
    id,
  });
const small = (id: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } });

async function bodyOf(
  req: IncomingMessage,
): Promise<{ id?: unknown; method?: string; params?: { name?: string } }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function sse(res: ServerResponse, events: string[]): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  for (const event of events) res.write(`data: ${event}\n\n`);
  res.end();
}

async function hostileEndpoint() {
  return startHttp(async (req, res) => {
    const message = await bodyOf(req);
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const json = (text: string) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
    if (message.method === 'server/discover') {
      json(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: DISCOVER }));
      return;
    }
    switch (message.params?.name) {
      case 'big-json':
        json(big(message.id));
        return;
      case 'big-sse':
        sse(res, [big(message.id)]);
        return;
      case 'big-progress-sse':
        sse(res, [
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: 'p', progress: 1, message: 'y'.repeat(10_000) },
          }),
          small(message.id),
        ]);
        return;
      default:
        json(small(message.id));
    }
  });
}

async function connect() {
  const endpoint = await hostileEndpoint();
  return connectClient(httpServer({ url: endpoint.url(), maxResponseBytes: LIMIT }), {
    requestTimeoutMs: PATIENCE_MS,
    // Over HTTP a slow probe is an error, not a fallback: a busy machine must not fail it.
    probeTimeoutMs: PATIENCE_MS,
  });
}

function expectTooLarge(error: Error): LocalError {
  expect(error).toBeInstanceOf(LocalError);
  expect((error as LocalError).code).toBe(LocalErrorCode.MessageTooLarge);
  expect(error.message).toContain(`${LIMIT} bytes`);
  return error as LocalError;
}

describe('limits over modern Streamable HTTP', () => {
  it('a JSON response body over the cap fails its call at once', async () => {
    const { client } = await connect();
    expect(client.era).toBe('modern');
    const error = expectTooLarge(await rejectionOf(client.callTool('big-json')));
    expect(error.details).toMatchObject({ limit: LIMIT });
    expect((await client.callTool('small')).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('an SSE response event over the cap fails its call when the stream ends', async () => {
    const { client } = await connect();
    const error = expectTooLarge(await rejectionOf(client.callTool('big-sse')));
    expect(error.details).toMatchObject({ method: 'tools/call', limit: LIMIT });
    expect((await client.callTool('small')).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('an oversized progress event fails nothing: the answer after it is delivered', async () => {
    const { client, warnings } = await connect();
    const result = await client.callTool('big-progress-sse', {}, { onProgress: () => undefined });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(warnings.some((w) => w.message.includes(`${LIMIT} bytes`))).toBe(true);
  });
});
