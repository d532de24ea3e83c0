/**
 * `McpClient` (auto) against a strict legacy stdio server that exits when its first message is
 * not `initialize` (as some Rust servers do). The probe kills it; the client starts a fresh
 * process, runs the legacy handshake there, and everything works afterwards. A verdict kept
 * from that connection spares the next one the probe and the extra process.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../support/interop-checks';
import {
  connectClient,
  fixtureServer,
  INTEROP_TIMEOUT,
  trackedStdio,
  useInterop,
} from '../support/interop-env';

useInterop();

describe('a stdio server that exits on anything before initialize', () => {
  it('auto reaches it through the legacy path on a fresh process', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const server = trackedStdio(fixtureServer('exit-before-init.mjs'));
    // A long probe timeout: the verdict must come from the exit, not from silence.
    const client = await connectClient(server.target, { probeTimeoutMs: 20_000 });
    expect(client.verdict).toMatchObject({
      era: 'legacy',
      // It answers an older version than the one offered; the client accepts it.
      protocolVersion: '2025-06-18',
      transport: 'stream',
      serverKey: server.target.key,
    });
    expect(client.serverInfo).toEqual({ name: 'strict-legacy', version: '0.1.0' });

    // Two processes: the probed one exited with its error, the second one serves.
    expect(server.opened).toHaveLength(2);
    expect(server.opened[0]?.exitInfo).toMatchObject({ exitCode: 1 });
    expect(server.stderr()).toContain('expected initialize request, got server/discover');

    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(['shout']);
    expect(textOf(await client.callTool('shout', { text: 'hi' }))).toBe('HI');
    const read = await client.readResource('strict://motd');
    expect(read.contents).toEqual([
      { uri: 'strict://motd', mimeType: 'text/plain', text: 'be strict' },
    ]);
    expect(textOf(await client.getPrompt('strict'))).toBe('strictly speaking');
    await client.ping();
    expect(client.closed).toBe(false);
    await client.close();
    expect(server.opened[1]?.exitInfo).toMatchObject({ exitCode: 0 });
  });

  it('a kept verdict connects with one process and no probe', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const server = trackedStdio(fixtureServer('exit-before-init.mjs'));
    const first = await connectClient(server.target);
    const verdict = first.verdict;
    await first.close();
    expect(server.opened).toHaveLength(2);

    const again = await connectClient(server.target, { verdict });
    expect(again.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    expect(server.opened).toHaveLength(3);
    expect(textOf(await again.callTool('shout', { text: 'again' }))).toBe('AGAIN');
    await again.close();
    expect(server.opened[2]?.exitInfo).toMatchObject({ exitCode: 0 });
  });

  it('pinned to legacy, it is reached on the first process', {
    timeout: INTEROP_TIMEOUT,
  }, async () => {
    const server = trackedStdio(fixtureServer('exit-before-init.mjs'));
    const client = await connectClient(server.target, { era: 'legacy' });
    expect(client.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    expect(server.opened).toHaveLength(1);
    await client.close();
  });
});
