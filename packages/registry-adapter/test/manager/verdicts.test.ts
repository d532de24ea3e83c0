/**
 * Era verdicts persisted beside the entries: written after a connect (never with a resolved
 * secret), reused by the next manager so it skips probing, dropped when the entry changes or
 * when connecting with it fails (then probed afresh and stored again).
 */
import { describe, expect, it } from 'vitest';
import {
  envRef,
  eventsOf,
  fileOf,
  fixtureEntry,
  managerFor,
  open,
  pidOf,
  referenceEverything,
  useManagers,
} from './support';

useManagers();

type Verdicts = Record<string, { verdict: Record<string, unknown>; entryFingerprint: string }>;

describe('ServerManager era verdicts', { timeout: 30_000 }, () => {
  it('stores the verdict without secrets and the next manager skips probing', async () => {
    const secret = 'never-written-0123456789';
    const m = await managerFor(
      { mcpServers: { fx: { ...fixtureEntry('--tools=a'), env: { TOKEN: envRef('FX_TOKEN') } } } },
      { env: { FX_TOKEN: secret } },
    );
    await m.manager.start();
    pidOf(m, 'fx');
    const file = await fileOf(m);
    const stored = (file.verdicts as Verdicts).fx;
    expect(stored?.verdict).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'stream',
    });
    // twofold servers send ttlMs 0 on discover: the result itself is not kept.
    expect(stored?.verdict).not.toHaveProperty('discover');
    expect(JSON.stringify(file)).not.toContain(secret);
    expect(eventsOf(m, 'server-started')[0]?.usedVerdict).toBe(false);
    await m.manager.close();

    const again = await open(m.path, { env: { FX_TOKEN: secret } });
    await again.manager.start();
    pidOf(again, 'fx');
    expect(eventsOf(again, 'server-started')[0]).toMatchObject({
      usedVerdict: true,
      era: 'modern',
    });
    expect(eventsOf(again, 'verdict-saved')).toEqual([]);
  });

  it('drops the verdict when the entry changes', async () => {
    const m = await managerFor({ mcpServers: { fx: fixtureEntry('--tools=a') } });
    await m.manager.start();
    await m.manager.update('fx', fixtureEntry('--tools=b'));
    pidOf(m, 'fx');
    expect(eventsOf(m, 'verdict-dropped')).toEqual([
      {
        type: 'verdict-dropped',
        server: 'fx',
        reason: 'the entry changed since the verdict was stored',
      },
    ]);
    expect(eventsOf(m, 'verdict-saved')).toHaveLength(2);
  });

  it('a verdict the server contradicts is dropped, probed afresh and stored again', async () => {
    const entry = referenceEverything();
    const m = await managerFor({ mcpServers: { ref: entry } });
    await m.manager.start();
    pidOf(m, 'ref');
    expect(m.manager.serverStatus('ref')).toMatchObject({ state: 'running', era: 'legacy' });
    const stored = ((await fileOf(m)).verdicts as Verdicts).ref;
    await m.manager.close();

    // Pretend an earlier run found it modern.
    const wrong = {
      ...stored,
      verdict: { ...stored?.verdict, era: 'modern', protocolVersion: '2026-07-28' },
    };
    const lied = await managerFor({ mcpServers: { ref: entry }, verdicts: { ref: wrong } });
    await lied.manager.start();
    pidOf(lied, 'ref');
    expect(lied.manager.serverStatus('ref')).toMatchObject({ state: 'running', era: 'legacy' });
    const dropped = eventsOf(lied, 'verdict-dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.reason).toMatch(/^connecting with it failed/);
    const restored = ((await fileOf(lied)).verdicts as Verdicts).ref;
    expect(restored?.verdict).toMatchObject({ era: 'legacy' });
    // Its tools made it in: server-everything's echo, called through the registry.
    const echo = lied.manager.registry.get('echo');
    const result = await echo?.invoke({ message: 'hi' }, { signal: AbortSignal.timeout(5000) });
    expect(JSON.stringify(result)).toContain('hi');
  });
});
