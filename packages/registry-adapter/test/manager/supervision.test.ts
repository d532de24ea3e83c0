/**
 * `ServerManager` supervising real child processes: parallel start where one bad server does not
 * hold up the rest, restart after a crash with the tools coming back, crash-loop protection,
 * a server that hangs on connect, and clean exits under each restart mode.
 */
import { describe, expect, it } from 'vitest';
import {
  alive,
  callSignal,
  eventsOf,
  fixtureEntry,
  managerFor,
  pidOf,
  QUICK_RESTART,
  textOf,
  until,
  useManagers,
} from './support';

useManagers();

describe('ServerManager supervision', { timeout: 20_000 }, () => {
  it('starts servers in parallel; one that cannot start costs one line, the rest run', async () => {
    const m = await managerFor({
      mcpServers: {
        good: fixtureEntry('--name=good', '--tools=lookup'),
        broken: { ...fixtureEntry('--exit-at-start=3'), restart: { mode: 'never' } },
        missing: { command: 'twofold-no-such-command-here', restart: { mode: 'never' } },
      },
    });
    const status = await m.manager.start();
    expect(status.map(({ name, state }) => ({ name, state }))).toEqual([
      { name: 'good', state: 'running' },
      { name: 'broken', state: 'failed' },
      { name: 'missing', state: 'failed' },
    ]);
    pidOf(m, 'good');
    expect(m.lines).toHaveLength(2);
    expect(m.lines.find((l) => l.includes('"broken"'))).toMatch(/failed to start: .*code 3/);
    expect(m.lines.find((l) => l.includes('"missing"'))).toMatch(/failed to start/);
    const failed = eventsOf(m, 'server-failed').map(({ server, phase, retry }) => ({
      server,
      phase,
      retry,
    }));
    expect(failed).toEqual(
      expect.arrayContaining([
        { server: 'broken', phase: 'start', retry: false },
        { server: 'missing', phase: 'start', retry: false },
      ]),
    );
    const lookup = m.manager.registry.get('lookup');
    expect(textOf(await lookup?.invoke({ text: 'hi' }, { signal: callSignal() }))).toBe(
      'good:lookup:hi',
    );
  });

  it('restarts a crashed server; its tools leave and come back, clashing names follow', async () => {
    const m = await managerFor({
      mcpServers: {
        alpha: { ...fixtureEntry('--name=alpha', '--tools=search'), restart: QUICK_RESTART },
        beta: { ...fixtureEntry('--name=beta', '--tools=search'), restart: QUICK_RESTART },
      },
    });
    await m.manager.start();
    const registry = m.manager.registry;
    expect(registry.get('alpha__search')).toBeDefined();
    expect(registry.get('beta__search')).toBeDefined();
    const before = pidOf(m, 'beta');

    const crash = registry.get('beta__crash');
    await expect(crash?.invoke({}, { signal: callSignal() })).rejects.toThrow();
    await until(() => !alive(before), 'the crashed process to be gone');
    await until(() => m.manager.serverStatus('beta')?.state === 'running', 'beta to restart');
    const after = pidOf(m, 'beta');
    expect(after).not.toBe(before);
    expect(m.manager.serverStatus('beta')).toMatchObject({ restarts: 1, recentFailures: 1 });

    const search = registry.get('beta__search');
    expect(textOf(await search?.invoke({ text: 'x' }, { signal: callSignal() }))).toBe(
      'beta:search:x',
    );
    const types = m.events.filter((e) => 'server' in e && e.server === 'beta').map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['server-failed', 'restart-scheduled', 'server-started']),
    );
    // While beta was down, alpha's tools were bare; they are prefixed again now.
    const renamed = eventsOf(m, 'tools')
      .map(({ event }) => event)
      .filter((event) => event.type === 'tool-renamed' && event.server === 'alpha');
    expect(renamed.map((e) => (e.type === 'tool-renamed' ? [e.from, e.to] : []))).toEqual(
      expect.arrayContaining([
        ['alpha__search', 'search'],
        ['search', 'alpha__search'],
      ]),
    );
  });

  it('gives up on a crash loop after maxFailures within the window', async () => {
    const m = await managerFor({
      mcpServers: {
        looping: { ...fixtureEntry('--exit-at-start=1'), restart: QUICK_RESTART },
      },
    });
    await m.manager.start();
    await until(() => m.manager.serverStatus('looping')?.state === 'failed', 'the crash loop');
    expect(m.manager.serverStatus('looping')).toMatchObject({
      state: 'failed',
      recentFailures: 3,
      restarts: 2,
    });
    expect(m.manager.serverStatus('looping')?.reason).toMatch(/^crash loop: 3 failures/);
    expect(eventsOf(m, 'crash-loop')).toEqual([
      { type: 'crash-loop', server: 'looping', failures: 3, windowMs: 60_000 },
    ]);
    expect(eventsOf(m, 'restart-scheduled').map((e) => e.delayMs)).toEqual([20, 40]);
    expect(m.lines.at(-1)).toMatch(/"looping" is not restarted again: crash loop/);
  });

  it('a server that hangs on connect fails within its connect budget', async () => {
    const m = await managerFor({
      mcpServers: {
        hung: { ...fixtureEntry('--hang'), connectTimeoutMs: 1500, restart: { mode: 'never' } },
      },
    });
    const [status] = await m.manager.start();
    expect(status).toMatchObject({ name: 'hung', state: 'failed' });
    expect(m.lines).toHaveLength(1);
    expect(m.lines[0]).toMatch(/"hung" failed to start/);
  });

  it('a clean exit is left alone under on-failure and restarted under always', async () => {
    const m = await managerFor({
      mcpServers: {
        polite: { ...fixtureEntry('--name=polite', '--tools=p'), restart: QUICK_RESTART },
        eager: {
          ...fixtureEntry('--name=eager', '--tools=e'),
          restart: { ...QUICK_RESTART, mode: 'always' },
        },
      },
    });
    await m.manager.start();
    const eagerPid = pidOf(m, 'eager');
    pidOf(m, 'polite');
    await m.manager.registry.get('polite__quit')?.invoke({}, { signal: callSignal() });
    await m.manager.registry.get('eager__quit')?.invoke({}, { signal: callSignal() });
    await until(() => m.manager.serverStatus('polite')?.state === 'stopped', 'polite to stop');
    expect(m.manager.serverStatus('polite')?.reason).toBe('exited with code 0');
    await until(
      () => m.manager.serverStatus('eager')?.state === 'running' && pidOf(m, 'eager') !== eagerPid,
      'eager to be restarted',
    );
    expect(eventsOf(m, 'server-exited').map((e) => [e.server, e.exitCode])).toEqual(
      expect.arrayContaining([
        ['polite', 0],
        ['eager', 0],
      ]),
    );
    // polite is gone, so its tools are too; eager's are back.
    expect(m.manager.registry.get('polite__p') ?? m.manager.registry.get('p')).toBeUndefined();
    expect(m.manager.registry.get('e')).toBeDefined();
  });
});
