/**
 * Changing a running manager: `reload()` reconciles a changed file without restarting what did
 * not change, run-time add / update / enable / disable / remove persist atomically, a reload
 * racing a restart ends with exactly the new server, and an invalid file changes nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { McpConfigError } from '../../src/config/errors';
import {
  alive,
  callSignal,
  eventsOf,
  fileOf,
  fixtureEntry,
  type Managed,
  managerFor,
  pidOf,
  QUICK_RESTART,
  until,
  useManagers,
} from './support';

useManagers();

/** Edits the file as a user would, once the manager's own writes (verdicts) have landed. */
async function rewrite(m: Managed, edit: (raw: Record<string, unknown>) => void): Promise<void> {
  await m.manager.saved();
  const raw = JSON.parse(await readFile(m.path, 'utf8')) as Record<string, unknown>;
  edit(raw);
  await writeFile(m.path, `${JSON.stringify(raw, null, 2)}\n`);
}

type Servers = Record<string, Record<string, unknown>>;

describe('ServerManager reload and run-time changes', { timeout: 20_000 }, () => {
  it('reload() keeps unchanged servers, restarts changed ones, stops removed, starts added', async () => {
    const m = await managerFor({
      mcpServers: {
        keep: fixtureEntry('--name=keep', '--tools=k'),
        change: fixtureEntry('--name=change', '--tools=c1'),
        drop: fixtureEntry('--name=drop', '--tools=d'),
      },
    });
    await m.manager.start();
    const keep = pidOf(m, 'keep');
    const change = pidOf(m, 'change');
    const drop = pidOf(m, 'drop');
    await rewrite(m, (raw) => {
      const servers = raw.mcpServers as Servers;
      servers.change = fixtureEntry('--name=change', '--tools=c2');
      delete servers.drop;
      servers.fresh = fixtureEntry('--name=fresh', '--tools=f');
    });
    await m.manager.reload();
    expect(eventsOf(m, 'reloaded')).toEqual([
      {
        type: 'reloaded',
        added: ['fresh'],
        removed: ['drop'],
        updated: ['change'],
        unchanged: ['keep'],
      },
    ]);
    expect(pidOf(m, 'keep')).toBe(keep);
    expect(pidOf(m, 'change')).not.toBe(change);
    expect(alive(change)).toBe(false);
    expect(alive(drop)).toBe(false);
    pidOf(m, 'fresh');
    expect(m.manager.status().map((s) => [s.name, s.state])).toEqual([
      ['keep', 'running'],
      ['change', 'running'],
      ['fresh', 'running'],
    ]);
    const names = m.manager.registry.list().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['c2', 'f', 'k']));
    expect(names).not.toContain('c1');
    expect(names).not.toContain('d');
  });

  it('an invalid file on reload throws McpConfigError and changes nothing', async () => {
    const m = await managerFor({ mcpServers: { one: fixtureEntry('--tools=t') } });
    await m.manager.start();
    const pid = pidOf(m, 'one');
    await rewrite(m, (raw) => {
      (raw.mcpServers as Servers).one = { ...fixtureEntry(), comand: 'typo' };
    });
    const failure = m.manager.reload();
    await expect(failure).rejects.toBeInstanceOf(McpConfigError);
    await expect(failure).rejects.toThrow(/unknown field "comand".*did you mean "command"/);
    expect(pidOf(m, 'one')).toBe(pid);
    expect(m.manager.registry.get('t')).toBeDefined();
  });

  it('add, update, disable, enable and remove at run time, each written to the file', async () => {
    const m = await managerFor({ mcpServers: { base: fixtureEntry('--tools=b') } });
    await m.manager.start();
    await m.manager.add('extra', fixtureEntry('--name=extra', '--tools=x'));
    expect(m.manager.serverStatus('extra')?.state).toBe('running');
    expect((await fileOf(m)).mcpServers).toHaveProperty('extra');

    const first = pidOf(m, 'extra');
    await m.manager.update('extra', fixtureEntry('--name=extra', '--tools=y'));
    expect(pidOf(m, 'extra')).not.toBe(first);
    expect(m.manager.registry.get('y')).toBeDefined();
    expect(m.manager.registry.get('x')).toBeUndefined();

    const second = pidOf(m, 'extra');
    await m.manager.disable('extra');
    expect(m.manager.serverStatus('extra')?.state).toBe('disabled');
    expect(alive(second)).toBe(false);
    expect(m.manager.registry.get('y')).toBeUndefined();
    const servers = (await fileOf(m)).mcpServers as Servers;
    expect(servers.extra?.enabled).toBe(false);

    await m.manager.enable('extra');
    expect(m.manager.serverStatus('extra')?.state).toBe('running');
    pidOf(m, 'extra');
    await m.manager.remove('extra');
    expect(m.manager.serverStatus('extra')).toBeUndefined();
    const file = await fileOf(m);
    expect(Object.keys(file.mcpServers as Servers)).toEqual(['base']);
    // The file keeps only what its user wrote: no defaults were filled in.
    expect((file.mcpServers as Servers).base).toEqual(fixtureEntry('--tools=b'));
  });

  it('refuses a bad entry at run time with an error naming the field, changing nothing', async () => {
    const m = await managerFor({ mcpServers: {} });
    await m.manager.start();
    await expect(
      m.manager.add('leaky', { command: 'x', env: { API_KEY: 'sk-live0123456789abcdef' } }),
    ).rejects.toThrow(/mcpServers\.leaky\.env\.API_KEY/);
    await expect(m.manager.add('nothing', { args: ['x'] })).rejects.toThrow(
      /server "nothing" needs "command"/,
    );
    expect(m.manager.status()).toEqual([]);
    expect(JSON.stringify(await fileOf(m))).not.toContain('sk-live');
  });

  it('a reload racing a restart ends with exactly the new server', async () => {
    const m = await managerFor({
      mcpServers: {
        racer: {
          ...fixtureEntry('--name=racer', '--tools=old'),
          restart: { ...QUICK_RESTART, initialDelayMs: 200, maxDelayMs: 400 },
        },
      },
    });
    await m.manager.start();
    const first = pidOf(m, 'racer');
    await expect(
      m.manager.registry.get('crash')?.invoke({}, { signal: callSignal() }),
    ).rejects.toThrow();
    await until(() => m.manager.serverStatus('racer')?.state === 'backoff', 'the backoff');
    await rewrite(m, (raw) => {
      (raw.mcpServers as Servers).racer = {
        ...fixtureEntry('--name=racer', '--tools=new'),
        restart: QUICK_RESTART,
      };
    });
    await m.manager.reload();
    // The restart that was due must not start a second process or the old entry.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(alive(first)).toBe(false);
    expect(m.manager.serverStatus('racer')?.state).toBe('running');
    pidOf(m, 'racer');
    expect(eventsOf(m, 'server-started').filter((e) => e.server === 'racer')).toHaveLength(2);
    expect(m.manager.registry.get('new')).toBeDefined();
    expect(m.manager.registry.get('old')).toBeUndefined();
  });

  it('watches the file when asked and reloads on a change', async () => {
    const m = await managerFor({ mcpServers: { w: fixtureEntry('--tools=w1') } }, { watch: true });
    await m.manager.start();
    pidOf(m, 'w');
    await rewrite(m, (raw) => {
      (raw.mcpServers as Servers).w = fixtureEntry('--tools=w2');
    });
    await until(() => m.manager.registry.get('w2') !== undefined, 'the watched reload');
    pidOf(m, 'w');
    expect(eventsOf(m, 'reloaded').at(-1)?.updated).toEqual(['w']);
  });
});
