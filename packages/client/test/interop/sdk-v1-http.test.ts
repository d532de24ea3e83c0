/**
 * `McpClient` (auto) against SDK 1.32.2 servers on plain `node:http`: the sessionful legacy
 * `StreamableHTTPServerTransport`, and the 2024-11-05 HTTP+SSE `SSEServerTransport` — with its
 * stream on its own path (`sseUrl`) and on the MCP URL itself. Server-to-client elicitation
 * travels on the call's response stream (Streamable HTTP) or the one SSE stream (HTTP+SSE).
 */
import { describe, expect, it } from 'vitest';
import { httpServer } from '../../src/node';
import { answeringHandlers, textOf, tourFixture } from '../support/interop-checks';
import { connectClient, INTEROP_TIMEOUT, useInterop } from '../support/interop-env';
import { sdkV1SseEndpoint, sdkV1StreamableEndpoint } from '../support/interop-http';

useInterop();

describe('@modelcontextprotocol/sdk 1.32.2 over HTTP', () => {
  it('StreamableHTTPServerTransport: auto detects legacy Streamable HTTP', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await sdkV1StreamableEndpoint();
    const target = httpServer({ url: endpoint.url });
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(target, { handlers });
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'streamable-http',
      serverKey: target.key,
    });
    expect(client.serverInfo).toMatchObject({ name: 'sdk-v1-interop' });

    await tourFixture(client, { era: 'legacy', elicitation: true, answered });
    await client.ping();
    expect(endpoint.sessions()).toBe(1);
    await client.close();
    expect(endpoint.sessions()).toBe(0);
    await endpoint.drained();
  });

  it('SSEServerTransport at GET /sse + POST /messages: auto falls back to HTTP+SSE', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await sdkV1SseEndpoint('/sse');
    const target = httpServer({ url: endpoint.url, sseUrl: new URL('/sse', endpoint.url) });
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(target, { handlers });
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'http+sse',
      serverKey: target.key,
    });
    expect(client.serverInfo).toMatchObject({ name: 'sdk-v1-interop' });

    await tourFixture(client, { era: 'legacy', elicitation: true, answered });
    await client.ping();
    expect(endpoint.sessions()).toBe(1);
    await client.close();
    // Closing the stream ends the server's session (drained() waits for both).
    await endpoint.drained();
    expect(endpoint.sessions()).toBe(0);
  });

  it('SSEServerTransport with its stream on the MCP URL: auto finds it without sseUrl', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    // GET /mcp opens the stream; the modern probe and the Streamable HTTP initialize (POSTs to
    // /mcp) are refused with 405, which sends the client to HTTP+SSE on the same URL.
    const endpoint = await sdkV1SseEndpoint('/mcp');
    const client = await connectClient(httpServer({ url: endpoint.url }));
    expect(client.verdict).toMatchObject({ era: 'legacy', transport: 'http+sse' });
    expect(textOf(await client.callTool('add', { a: 20, b: 22 }))).toBe('42');
    await client.close();
    await endpoint.drained();
  });

  it('a verdict naming HTTP+SSE goes straight to the SSE stream', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await sdkV1SseEndpoint('/sse');
    const target = httpServer({ url: endpoint.url, sseUrl: new URL('/sse', endpoint.url) });
    const first = await connectClient(target);
    const verdict = first.verdict;
    await first.close();
    const again = await connectClient(target, { verdict });
    expect(again.verdict).toMatchObject({ era: 'legacy', transport: 'http+sse' });
    expect(textOf(await again.callTool('add', { a: 1, b: 2 }))).toBe('3');
    await again.close();
    await endpoint.drained();
  });
});
