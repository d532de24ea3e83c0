/**
 * `McpClient` against the official SDK 2.4.0 over HTTP. `createMcpHandler` serves the modern
 * era (and 2025 traffic statelessly by default); a hand-wired sessionful
 * `WebStandardStreamableHTTPServerTransport` is a legacy-only Streamable HTTP server. Every
 * endpoint ends the test with no socket left open by the client.
 */
import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { httpServer } from '../../src/node';
import { onCancelled } from '../fixtures/interop/official-server.mjs';
import { answeringHandlers, listenAndCancel, textOf, tourFixture } from '../support/interop-checks';
import { connectClient, INTEROP_TIMEOUT, useInterop } from '../support/interop-env';
import { officialHandlerEndpoint, officialLegacyEndpoint } from '../support/interop-http';

useInterop();

/** Resolves at the next cancellation of a `wait` call in this process. */
function nextCancellation(): () => Promise<void> {
  const seen = new Promise<void>((resolve) => {
    const undo = onCancelled(() => {
      undo();
      resolve();
    });
  });
  return () => seen;
}

describe('official @modelcontextprotocol/server 2.4.0 over HTTP', () => {
  it('createMcpHandler: auto detects modern Streamable HTTP', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await officialHandlerEndpoint();
    const target = httpServer({ url: endpoint.url });
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(target, { handlers });
    expect(client.verdict).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'streamable-http',
      serverKey: target.key,
    });
    expect(client.serverInfo).toMatchObject({ name: 'official-interop' });

    await tourFixture(client, { era: 'modern', elicitation: true, answered });
    await client.ping();
    await client.close();
    await endpoint.drained();
  });

  it("createMcpHandler: listen gets the notifier's events; an aborted call ends its exchange", {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await officialHandlerEndpoint();
    const client = await connectClient(httpServer({ url: endpoint.url }));
    await listenAndCancel(client, () => endpoint.notify.toolsChanged(), nextCancellation());
    await client.close();
    await endpoint.drained();
  });

  it('createMcpHandler with legacy pinned: its stateless 2025 leg serves everything but input', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await officialHandlerEndpoint();
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(httpServer({ url: endpoint.url }), {
      era: 'legacy',
      handlers,
    });
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'streamable-http',
    });
    // Per-request legacy serving cannot send server-to-client requests: `confirm` fails in
    // its result, and the handler is never asked.
    await tourFixture(client, { era: 'legacy', elicitation: false, answered });
    await client.close();
    await endpoint.drained();
  });

  it("createMcpHandler({ legacy: 'reject' }) with legacy pinned: NO_MUTUAL_VERSION", {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await officialHandlerEndpoint('reject');
    const error = await connectClient(httpServer({ url: endpoint.url }), { era: 'legacy' }).catch(
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({
      code: 'NO_MUTUAL_VERSION',
      details: { supported: ['2026-07-28'] },
    });
    await endpoint.drained();

    // Unpinned, the same endpoint is simply modern.
    const client = await connectClient(httpServer({ url: endpoint.url }));
    expect(client.verdict).toMatchObject({ era: 'modern', transport: 'streamable-http' });
    expect(textOf(await client.callTool('add', { a: 1, b: 2 }))).toBe('3');
    await client.close();
    await endpoint.drained();
  });

  it('hand-wired sessionful legacy transport: auto detects legacy Streamable HTTP', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await officialLegacyEndpoint();
    const target = httpServer({ url: endpoint.url });
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(target, { handlers });
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'streamable-http',
      serverKey: target.key,
    });
    expect(client.serverInfo).toMatchObject({ name: 'official-interop' });

    // A legacy session: `input_required` is turned into a real elicitation request.
    await tourFixture(client, { era: 'legacy', elicitation: true, answered });
    await client.ping();
    expect(endpoint.sessions()).toBe(1);
    // Closing deletes the session (DELETE) before it resolves.
    await client.close();
    expect(endpoint.sessions()).toBe(0);
    await endpoint.drained();
  });

  it('hand-wired legacy: list changes arrive on the GET stream; cancel is a notification', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const endpoint = await officialLegacyEndpoint();
    const client = await connectClient(httpServer({ url: endpoint.url }));
    expect(client.era).toBe('legacy');
    await listenAndCancel(client, () => client.callTool('toggle-extra', {}), nextCancellation());
    await client.close();
    await endpoint.drained();
  });
});
