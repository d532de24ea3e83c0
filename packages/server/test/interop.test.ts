/**
 * Interop: the official SDK clients (`@modelcontextprotocol/client` 2.4.0 in `auto`, pinned
 * modern and legacy negotiation; `@modelcontextprotocol/sdk` 1.32.2, legacy only) against a
 * twofold `McpServer`, over stdio (a spawned fixture process) and Streamable HTTP (in-process).
 */
import type { VersionNegotiationMode } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeInteropClients,
  connectClient,
  connectSdkClient,
  type InteropClient,
} from './fixtures/interop-clients';
import { GREETING_URI } from './fixtures/interop-server';

afterEach(closeInteropClients);

/** Lists tools, calls one, reads a resource and gets a prompt. */
async function exerciseBasics(client: InteropClient): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['add', 'confirm']);
  expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
    content: [{ type: 'text', text: '5' }],
  });
  expect(await client.callTool({ name: 'add', arguments: { a: 'two' } })).toMatchObject({
    isError: true,
  });
  const read = await client.readResource({ uri: GREETING_URI });
  expect(read.contents).toEqual([{ uri: GREETING_URI, mimeType: 'text/plain', text: 'hello' }]);
  expect(await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).toMatchObject({
    messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada' } }],
  });
}

const MODES: { label: string; mode: VersionNegotiationMode; era: 'modern' | 'legacy' }[] = [
  { label: 'auto', mode: 'auto', era: 'modern' },
  { label: 'pinned 2026-07-28', mode: { pin: '2026-07-28' }, era: 'modern' },
  { label: 'legacy', mode: 'legacy', era: 'legacy' },
];

describe.each(['stdio', 'http'] as const)('official clients over %s', (transport) => {
  describe.each(MODES)('@modelcontextprotocol/client 2.4.0, $label', ({ mode, era }) => {
    it(`negotiates the ${era} era and lists, calls, reads and gets`, async () => {
      const connected = await connectClient(mode, transport);
      expect(connected.era).toBe(era);
      await exerciseBasics(connected.client);
    });
  });

  it('@modelcontextprotocol/sdk 1.32.2 (legacy) lists, calls, reads and gets', async () => {
    const client = await connectSdkClient(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'interop', version: '1.0.0' });
    await exerciseBasics(client);
  });

  it('@modelcontextprotocol/client 2.4.0 (legacy) answers an input request as a real elicitation', async () => {
    const { client } = await connectClient('legacy', transport);
    expect(await client.callTool({ name: 'confirm', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'accept: yes' }],
    });
  });

  it('@modelcontextprotocol/sdk 1.32.2 answers an input request as a real elicitation', async () => {
    const client = await connectSdkClient(transport);
    expect(await client.callTool({ name: 'confirm', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'decline: no' }],
    });
  });
});
