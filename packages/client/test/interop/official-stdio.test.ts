/**
 * `McpClient` (auto) against a server on the official SDK 2.4.0 over stdio: served with the
 * SDK's dual-era `serveStdio` it is modern on the first process; hand-wired to its
 * `StdioServerTransport` (a pre-2026 server) it answers the probe with an error and is legacy
 * on the same process. The same tool needing an elicitation reaches the handler as an
 * `input_required` round (modern) or as a server-to-client request (legacy).
 */
import { describe, expect, it } from 'vitest';
import { answeringHandlers, listenAndCancel, textOf, tourFixture } from '../support/interop-checks';
import {
  connectClient,
  fixtureServer,
  INTEROP_TIMEOUT,
  trackedStdio,
  useInterop,
} from '../support/interop-env';

useInterop();

describe('official @modelcontextprotocol/server 2.4.0 over stdio', () => {
  it('serveStdio: auto detects modern on one process', { timeout: INTEROP_TIMEOUT }, async () => {
    const server = trackedStdio(fixtureServer('official-stdio.mjs', ['--modern']));
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(server.target, { handlers });
    expect(client.verdict).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'stream',
      serverKey: server.target.key,
    });
    expect(client.verdict.discover?.supportedVersions).toContain('2026-07-28');
    expect(client.serverInfo).toMatchObject({ name: 'official-interop' });
    expect(client.instructions).toBe('official fixture');
    expect(server.opened).toHaveLength(1);

    await tourFixture(client, { era: 'modern', elicitation: true, answered });
    await client.ping();
    await client.close();
    expect(server.opened[0]?.exitInfo).toMatchObject({ exitCode: 0 });
  });

  it('hand-wired StdioServerTransport: auto detects legacy on the same process', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const server = trackedStdio(fixtureServer('official-stdio.mjs', ['--legacy']));
    const { handlers, answered } = answeringHandlers();
    const client = await connectClient(server.target, { handlers });
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'stream',
      serverKey: server.target.key,
    });
    expect(client.verdict.discover).toBeUndefined();
    expect(client.serverInfo).toMatchObject({ name: 'official-interop' });
    // The probe's -32601 answer keeps the process: no second spawn.
    expect(server.opened).toHaveLength(1);

    await tourFixture(client, { era: 'legacy', elicitation: true, answered });
    await client.ping();
    // `discover()` on a legacy server is built from the initialize result.
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toEqual(['2025-11-25']);
    await client.close();
    expect(server.opened[0]?.exitInfo).toMatchObject({ exitCode: 0 });
  });

  it('listen sees tool list changes and a cancelled call stops on the server, in both eras', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    for (const mode of ['--modern', '--legacy']) {
      const server = trackedStdio(fixtureServer('official-stdio.mjs', [mode]));
      const client = await connectClient(server.target);
      // stdio delivers in order: the cancellation is handled before the next call.
      const sawCancel = async () => {
        expect(textOf(await client.callTool('cancellations', {}))).toBe('1');
      };
      await listenAndCancel(client, () => client.callTool('toggle-extra', {}), sawCancel);
      await client.close();
    }
  });

  it('a verdict from the first connection skips probing on the next', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    for (const mode of ['--modern', '--legacy']) {
      const server = trackedStdio(fixtureServer('official-stdio.mjs', [mode]));
      const first = await connectClient(server.target);
      const verdict = first.verdict;
      await first.close();
      const again = await connectClient(server.target, { verdict });
      expect(again.verdict).toMatchObject({
        era: verdict.era,
        protocolVersion: verdict.protocolVersion,
      });
      expect(textOf(await again.callTool('add', { a: 1, b: 1 }))).toBe('2');
      await again.close();
      expect(server.opened).toHaveLength(2);
    }
  });

  it('a declined elicitation reaches the tool as a decline in both eras', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    for (const mode of ['--modern', '--legacy']) {
      const server = trackedStdio(fixtureServer('official-stdio.mjs', [mode]));
      const client = await connectClient(server.target, {
        handlers: { elicitation: async () => ({ action: 'decline' }) },
      });
      // The fixture asks again while it has no accepted answer, so the modern client runs out
      // of rounds and the legacy shim out of re-entries: both end, neither hangs.
      const outcome = await client.callTool('confirm', { action: 'x' }).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      if (client.era === 'modern') {
        expect(outcome).toMatchObject({ error: { code: 'TOO_MANY_ROUNDS' } });
      } else {
        expect(outcome).toMatchObject({ result: { isError: true } });
      }
      await client.close();
    }
  });
});
