/**
 * Interop of modern multi round-trip requests: the official `@modelcontextprotocol/client`
 * 2.4.0, negotiating the modern era (`auto` and pinned 2026-07-28), fulfils a twofold tool's
 * `input_required` result through its elicitation handler and retries with the signed
 * `requestState`, over stdio and Streamable HTTP.
 */
import type { VersionNegotiationMode } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { closeInteropClients, connectClient } from './fixtures/interop-clients';

afterEach(closeInteropClients);

const MODERN_MODES: { label: string; mode: VersionNegotiationMode }[] = [
  { label: 'auto', mode: 'auto' },
  { label: 'pinned 2026-07-28', mode: { pin: '2026-07-28' } },
];

describe.each(['stdio', 'http'] as const)(
  'modern input-required round trip over %s',
  (transport) => {
    it.each(MODERN_MODES)('@modelcontextprotocol/client 2.4.0, $label', async ({ mode }) => {
      const { client, era } = await connectClient(mode, transport);
      expect(era).toBe('modern');
      expect(await client.callTool({ name: 'confirm', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'accept: yes' }],
      });
    });
  },
);
