/**
 * Pinned eras, pinned versions and prior verdicts on stdio: no probe is sent, so a server that
 * exits on any request before `initialize` still connects on its first process.
 */
import { LocalError, ProtocolError } from '@twofold/protocol/experimental';
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

describe('stdio: pinned era or version', () => {
  it("era 'legacy' goes straight to initialize", async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=exit']);
    const session = await connectForTest(fixture.target, eraConfig({ era: 'legacy' }));
    expect(session.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(fixture.spawns()).toBe(1);
  });

  it('a pinned legacy version is offered as it is', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=exit']);
    const session = await connectForTest(
      fixture.target,
      eraConfig({ protocolVersion: '2025-06-18' }),
    );
    expect(session.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    expect(fixture.spawns()).toBe(1);
  });

  it("era 'modern' runs discover and never falls back", async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=error']);
    const error = await connectSession(fixture.target, eraConfig({ era: 'modern' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32601);
    expect(fixture.spawns()).toBe(1);
    expectNoLiveChild(fixture);
  });

  it("era 'modern' waits for a slow server past the probe timeout", async () => {
    const fixture = stdioFixture('modern.mjs', ['--delay=500']);
    const session = await connectForTest(
      fixture.target,
      eraConfig({ era: 'modern', probeTimeoutMs: 100 }),
    );
    expect(session.verdict).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(fixture.spawns()).toBe(1);
  });

  it('a pinned modern version implies the modern era', async () => {
    const fixture = stdioFixture('twofold-server.mjs');
    const session = await connectForTest(
      fixture.target,
      eraConfig({ era: 'legacy', protocolVersion: '2026-07-28' }),
    );
    expect(session.verdict).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  });

  it('an unknown pinned version fails before anything starts', async () => {
    const fixture = stdioFixture('twofold-server.mjs');
    const error = await connectSession(
      fixture.target,
      eraConfig({ protocolVersion: '2024-01-01' }),
    ).catch((e: unknown) => e);
    expect((error as LocalError).code).toBe('NO_MUTUAL_VERSION');
    expect(fixture.opened).toHaveLength(0);
  });

  it("era 'legacy' on a modern-only server fails with NO_MUTUAL_VERSION", async () => {
    const fixture = stdioFixture('twofold-server.mjs', ['--versions=modern']);
    const error = await connectSession(fixture.target, eraConfig({ era: 'legacy' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('NO_MUTUAL_VERSION');
    expect(fixture.spawns()).toBe(1);
    expectNoLiveChild(fixture);
  });
});

describe('stdio: prior verdicts', () => {
  it('a legacy verdict for this server skips the probe', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=exit']);
    const verdict = {
      era: 'legacy' as const,
      protocolVersion: '2025-06-18',
      transport: 'stream' as const,
      serverKey: fixture.target.key,
    };
    const session = await connectForTest(fixture.target, eraConfig({ verdict }));
    expect(session.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    expect(fixture.spawns()).toBe(1);
  });

  it('a verdict for another server is ignored', async () => {
    const fixture = stdioFixture('legacy.mjs', ['--before-init=exit']);
    const verdict = {
      era: 'legacy' as const,
      protocolVersion: '2025-06-18',
      transport: 'stream' as const,
      serverKey: 'stdio:another',
    };
    const session = await connectForTest(fixture.target, eraConfig({ verdict }));
    expect(session.verdict).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(fixture.spawns()).toBe(2);
  });

  it('a modern verdict with its discover result sends nothing before the first request', async () => {
    const first = stdioFixture('modern.mjs', [], 'stdio:modern');
    const probed = await connectForTest(first.target, eraConfig());
    const again = stdioFixture('modern.mjs', [], 'stdio:modern');
    const session = await connectForTest(again.target, eraConfig({ verdict: probed.verdict }));
    expect(session.verdict).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(session.facts.serverInfo?.name).toBe('modern-fixture');
    const seen = await session.request('fixture/seen', undefined);
    expect(seen.methods).toEqual(['fixture/seen@2026-07-28']);
  });

  it('a modern verdict without a discover result runs discover', async () => {
    const fixture = stdioFixture('modern.mjs');
    const verdict = {
      era: 'modern' as const,
      protocolVersion: '2026-07-28',
      transport: 'stream' as const,
      serverKey: fixture.target.key,
    };
    const session = await connectForTest(fixture.target, eraConfig({ verdict }));
    const seen = await session.request('fixture/seen', undefined);
    expect(seen.methods).toEqual(['server/discover@2026-07-28', 'fixture/seen@2026-07-28']);
  });

  it('a legacy verdict that proves wrong moves to modern on the same process', async () => {
    const fixture = stdioFixture('modern.mjs');
    const verdict = {
      era: 'legacy' as const,
      protocolVersion: '2025-11-25',
      transport: 'stream' as const,
      serverKey: fixture.target.key,
    };
    const session = await connectForTest(fixture.target, eraConfig({ verdict }));
    expect(session.verdict).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(fixture.spawns()).toBe(1);
  });
});
