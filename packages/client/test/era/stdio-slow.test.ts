/**
 * Era detection on stdio for servers slower than the probe timeout. The fixtures hold their
 * answer to `server/discover` until `initialize` has arrived, which is what a late answer looks
 * like, without depending on how fast this machine is: after the probe timeout, `initialize`
 * goes to the same process, the probe keeps listening, and whichever answer proves the era
 * first decides. No fresh process is started unless one ends.
 */
import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { connectSession } from '../../src/era/connect';
import { storeVerdict } from '../../src/era/stored-verdict';
import {
  connectForTest,
  eraConfig,
  eraHooks,
  expectNoLiveChild,
  stdioFixture,
  useEraCleanups,
} from '../support/era-targets';

useEraCleanups();

// Small on purpose: the fixtures decide the order of events, not the clock.
const PROBE_TIMEOUT_MS = 20;

describe('stdio era detection: servers slower than the probe', () => {
  it('a late discover result wins; the pending initialize is dropped quietly', async () => {
    const fixture = stdioFixture('modern.mjs', ['--discover=late']);
    const hooks = eraHooks();
    const session = await connectForTest(
      fixture.target,
      eraConfig({ probeTimeoutMs: PROBE_TIMEOUT_MS, hooks }),
    );
    expect(session.verdict).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      reachedBy: 'answer',
    });
    expect(fixture.spawns()).toBe(1);
    const seen = await session.request('fixture/seen', undefined);
    // No notifications/cancelled for either request: initialize is never cancelled.
    expect(seen.methods).toEqual([
      'server/discover@2026-07-28',
      'initialize',
      'fixture/seen@2026-07-28',
    ]);
    // The late refusal of initialize was expected, not a peer error.
    expect(hooks.warnings).toEqual([]);
    expect(storeVerdict(session.verdict, Date.now())?.verdict.era).toBe('modern');
    await session.close();
    expectNoLiveChild(fixture);
  });

  it('a modern server that never answers initialize is modern once discover answers', async () => {
    const fixture = stdioFixture('modern.mjs', ['--discover=late', '--initialize=silent']);
    const session = await connectForTest(
      fixture.target,
      eraConfig({ probeTimeoutMs: PROBE_TIMEOUT_MS }),
    );
    expect(session.verdict).toMatchObject({ era: 'modern', reachedBy: 'answer' });
    expect(fixture.spawns()).toBe(1);
  });

  it('initialize refused before the late discover answer: the answer still decides', async () => {
    const fixture = stdioFixture('modern.mjs', ['--discover=last']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 200 }));
    expect(session.verdict).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(fixture.spawns()).toBe(1);
  });

  it('a dual-era twofold server slower than the probe is modern on its first process', async () => {
    // Sleeps before reading stdin: the probe times out (100 ms) long before it starts.
    const fixture = stdioFixture('twofold-server.mjs', ['--delay=600']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 100 }));
    expect(session.verdict).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(fixture.spawns()).toBe(1);
    const listed = await session.request('tools/list', undefined);
    expect((listed.tools as { name: string }[]).map((t) => t.name)).toEqual(['echo']);
    await session.close();
    expectNoLiveChild(fixture);
  });

  it('a modern-only server that starts after the probe timeout is modern', async () => {
    const fixture = stdioFixture('modern.mjs', ['--delay=600']);
    const session = await connectForTest(fixture.target, eraConfig({ probeTimeoutMs: 100 }));
    expect(session.verdict).toMatchObject({ era: 'modern', reachedBy: 'answer' });
    expect(fixture.spawns()).toBe(1);
  });

  it('a late error answer to the probe makes a legacy verdict that may be stored', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=late-error']);
    const session = await connectForTest(
      fixture.target,
      eraConfig({ probeTimeoutMs: PROBE_TIMEOUT_MS }),
    );
    expect(session.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      reachedBy: 'answer',
    });
    expect(fixture.spawns()).toBe(1);
    expect(storeVerdict(session.verdict, Date.now())?.verdict.era).toBe('legacy');
  });

  it('initialize answered just before the discover result: still modern', async () => {
    // A dual-era server that handles requests concurrently (as twofold's own does under load).
    const fixture = stdioFixture('legacy.mjs', ['--before-init=late-result']);
    const session = await connectForTest(
      fixture.target,
      eraConfig({ probeTimeoutMs: PROBE_TIMEOUT_MS }),
    );
    expect(session.verdict).toMatchObject({ era: 'modern', reachedBy: 'answer' });
    expect(fixture.spawns()).toBe(1);
  });

  it('initialize answered and the probe still silent: legacy, reached by silence, never stored', async () => {
    // The discover result comes only once the client has gone on with the legacy session.
    const fixture = stdioFixture('legacy.mjs', ['--before-init=result-after-initialized']);
    const hooks = eraHooks();
    const session = await connectForTest(
      fixture.target,
      eraConfig({ probeTimeoutMs: PROBE_TIMEOUT_MS, hooks }),
    );
    expect(session.verdict).toMatchObject({ era: 'legacy', reachedBy: 'silence' });
    expect(storeVerdict(session.verdict, Date.now())).toBeUndefined();
    // The discover result that came after initialize was dropped quietly.
    await session.request('ping', undefined);
    expect(hooks.warnings).toEqual([]);
    expect(fixture.spawns()).toBe(1);
  });

  it('connectTimeoutMs bounds a server that answers neither', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=mute']);
    const error = await connectSession(
      fixture.target,
      eraConfig({ probeTimeoutMs: PROBE_TIMEOUT_MS, connectTimeoutMs: 2000 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).details).toMatchObject({ phase: 'initialize', timeoutMs: 2000 });
    expect(fixture.spawns()).toBe(1);
    expectNoLiveChild(fixture);
  });
});
