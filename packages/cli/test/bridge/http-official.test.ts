/**
 * Acceptance: the official `@modelcontextprotocol/client` 2.4.0 lists and calls the tools of
 * `@modelcontextprotocol/server-everything` (a legacy stdio server) through the HTTP bridge —
 * in modern mode, which the server itself cannot serve, and in legacy mode. In modern mode the
 * server's own elicitation request reaches the client as an `input_required` round.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import {
  BRIDGE_TIMEOUT,
  closeAfterTest,
  loopbackBridge,
  referenceEverything,
  useBridgeEnv,
} from './support/bridge-env';

useBridgeEnv();

function bridgeEverything() {
  return loopbackBridge({ upstream: referenceEverything() });
}

async function officialClient(url: URL, mode: 'legacy' | { pin: string }): Promise<Client> {
  const client = new Client(
    { name: 'official-downstream', version: '2.4.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  client.setRequestHandler('elicitation/create', () => ({
    action: 'accept',
    content: { name: 'Ada Lovelace' },
  }));
  await client.connect(new StreamableHTTPClientTransport(url));
  return closeAfterTest(client);
}

describe('official client → twofold bridge → server-everything (legacy stdio)', () => {
  it('modern mode: lists and calls tools, with progress and an input round', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const bridge = await bridgeEverything();
    expect(bridge.upstreamVerdict).toMatchObject({ era: 'legacy', transport: 'stream' });
    const client = await officialClient(bridge.url, { pin: '2026-07-28' });
    expect(client.getProtocolEra()).toBe('modern');

    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']),
    );

    expect(await client.callTool({ name: 'echo', arguments: { message: 'across' } })).toMatchObject(
      {
        content: [{ type: 'text', text: 'Echo: across' }],
      },
    );
    expect(await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('5') }],
    });
    const progress: number[] = [];
    const long = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(long).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('completed') }],
    });
    expect(progress).toEqual([1, 2]);

    // The legacy server asks with a real request; the modern client answers a round.
    const elicited = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(elicited).toMatchObject({
      content: expect.arrayContaining([
        { type: 'text', text: expect.stringContaining('- Name: Ada Lovelace') },
      ]),
    });
  });

  it('legacy mode: lists and calls tools, with an input request', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const bridge = await bridgeEverything();
    const client = await officialClient(bridge.url, 'legacy');
    expect(client.getProtocolEra()).toBe('legacy');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(await client.callTool({ name: 'echo', arguments: { message: 'old' } })).toMatchObject({
      content: [{ type: 'text', text: 'Echo: old' }],
    });
    // The server's request reaches the legacy client as a real request, through the bridge.
    const elicited = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(elicited).toMatchObject({
      content: expect.arrayContaining([
        { type: 'text', text: expect.stringContaining('- Name: Ada Lovelace') },
      ]),
    });
  });
});
