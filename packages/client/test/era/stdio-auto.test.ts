/**
 * Era detection on stdio with real child processes: what each kind of server costs (round
 * trips, probe timeouts, extra processes) and which verdict it gets; nothing keeps running
 * after the session closes. Servers slower than the probe: stdio-slow.test.ts.
 */
import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { connectSession } from '../../src/era/connect';
import {
  connectForTest,
  eraConfig,
  expectNoLiveChild,
  stdioFixture,
  useEraCleanups,
} from '../support/era-targets';

useEraCleanups();

describe('stdio era detection (auto)', () => {
  it('a twofold McpServer is modern on the first process', async () => {
    const fixture = stdioFixture('twofold-server.mjs');
    const session = await connectForTest(fixture.target, eraConfig());
    expect(session.verdict).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'stream',
      serverKey: fixture.target.key,
    });
    expect(session.verdict.discover?.supportedVersions).toContain('2026-07-28');
    expect(session.facts.serverInfo?.name).toBe('twofold-fixture');
    const listed = await session.request('tools/list', undefined);
    expect((listed.tools as { name: string }[]).map((t) => t.name)).toEqual(['echo']);
    expect(fixture.spawns()).toBe(1);
    await session.close();
    expectNoLiveChild(fixture);
  });

  it('a legacy server answering the probe with an error costs one round trip, no process', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=error']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 30_000 }));
    expect(session.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'stream',
      reachedBy: 'answer',
    });
    expect(session.facts.serverInfo?.name).toBe('legacy-fixture');
    // The probe, then the handshake, on the same process.
    const seen = await session.request('fixture/seen', undefined);
    expect(seen.methods).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
      'fixture/seen',
    ]);
    expect(fixture.spawns()).toBe(1);
    await session.close();
    expectNoLiveChild(fixture);
  });

  it('a silent legacy server gets initialize on the same process; its verdict rests on silence', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=silent']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 50 }));
    expect(session.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      reachedBy: 'silence',
    });
    expect(fixture.spawns()).toBe(1);
    // The ping gave a concurrent server's late discover answer the time to come out.
    const seen = await session.request('fixture/seen', undefined);
    expect(seen.methods).toEqual([
      'server/discover',
      'initialize',
      'ping',
      'notifications/initialized',
      'fixture/seen',
    ]);
    await session.close();
    expectNoLiveChild(fixture);
  });

  it('a server that exits on the probe gets a fresh process and initialize', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=exit']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 30_000 }));
    expect(session.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(fixture.spawns()).toBe(2);
    expect(fixture.opened[0]?.exitInfo?.exitCode).toBe(3);
    await session.close();
    expectNoLiveChild(fixture);
  });

  it('-32022 naming only legacy versions runs initialize with one of them, same process', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=legacy-versions']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 30_000 }));
    expect(session.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    expect(fixture.spawns()).toBe(1);
  });

  it('a twofold server offering only legacy versions is legacy on the same process', async () => {
    const fixture = stdioFixture('twofold-server.mjs', ['--versions=legacy']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 30_000 }));
    expect(session.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(fixture.spawns()).toBe(1);
    const listed = await session.request('tools/list', undefined);
    expect(listed.tools).toHaveLength(1);
  });

  it('-32022 for a version the server does not know retries once with the mutual one', async () => {
    const fixture = stdioFixture('modern.mjs');
    const session = await connectForTest(
      fixture.target,
      eraConfig({ modernVersions: ['2099-01-01', '2026-07-28'] }),
    );
    expect(session.verdict).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    const seen = await session.request('fixture/seen', undefined);
    expect(seen.methods).toEqual([
      'server/discover@2099-01-01',
      'server/discover@2026-07-28',
      'fixture/seen@2026-07-28',
    ]);
    expect(fixture.spawns()).toBe(1);
  });

  it('a server listing only versions this client lacks fails with NO_MUTUAL_VERSION', async () => {
    const fixture = stdioFixture('modern.mjs', ['--supported=2099-01-01']);
    const error = await connectSession(fixture.target, eraConfig()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('NO_MUTUAL_VERSION');
    expect(fixture.spawns()).toBe(1);
    expectNoLiveChild(fixture);
  });

  it('a server that never answers fails with REQUEST_TIMEOUT naming the phase, all stopped', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=mute']);
    const error = await connectSession(
      fixture.target,
      eraConfig({ probeTimeoutMs: 1, connectTimeoutMs: 1500 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('REQUEST_TIMEOUT');
    expect((error as LocalError).details).toMatchObject({ phase: 'initialize', timeoutMs: 1500 });
    expect(fixture.spawns()).toBe(1);
    expectNoLiveChild(fixture);
  });

  it('a server that crashes at start fails with PROCESS_EXITED after one fresh start', async () => {
    const fixture = stdioFixture('no-such-fixture.mjs');
    const error = await connectSession(fixture.target, eraConfig()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('PROCESS_EXITED');
    expect(fixture.opened).toHaveLength(2);
    expectNoLiveChild(fixture);
  });
});
