/**
 * Following tool list changes of real twofold servers, in both eras (modern
 * `subscriptions/listen`, legacy `notifications/tools/list_changed`) over an in-memory pair and
 * over HTTP, including a change the server makes while one of its tools is being called.
 */
import type { ServerTarget } from '@twofold/client/experimental';
import type { McpServer, ServedServer } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import { useImportEnv } from './support/env';
import { ctx, namesOf, newProvider, textOf } from './support/events';
import {
  addNamedTool,
  httpTarget,
  memoryTarget,
  namedServer,
  withOperations,
} from './support/servers';

useImportEnv();

type Era = 'modern' | 'legacy';
const WAYS = [
  ['modern', 'memory'],
  ['legacy', 'memory'],
  ['modern', 'http'],
  ['legacy', 'http'],
] as const;

async function targetOf(server: ServedServer, way: 'memory' | 'http'): Promise<ServerTarget> {
  return way === 'memory'
    ? memoryTarget(server, server.serverInfo.name).target
    : httpTarget(server);
}

/** The tool names `server` lists now (straight from its registry). */
function serverNames(server: ServedServer): string[] {
  return server.operations.listTools(undefined).tools.map((tool) => tool.name);
}

/**
 * A server whose `reshape` tool, while it runs, removes `old` and itself, adds `fresh`, and
 * returns only once a client has listed the tools again (so the re-list surely happens while
 * the call is in flight).
 */
function reshapingServer(): { server: McpServer; served: ServedServer } {
  const server = namedServer('shifting', ['stay']);
  const old = addNamedTool(server, 'old');
  let listings = 0;
  const listed = new Set<() => void>();
  const served = withOperations(server, (base) => ({
    listTools: (cursor) => {
      listings++;
      for (const wake of [...listed]) wake();
      return base.listTools(cursor);
    },
  }));
  const relisted = (after: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no client listed the tools')), 5000);
      const wake = () => {
        if (listings <= after) return;
        clearTimeout(timer);
        listed.delete(wake);
        resolve();
      };
      listed.add(wake);
      wake();
    });
  const reshape = server.registerTool({
    name: 'reshape',
    handler: async () => {
      const before = listings;
      old.remove();
      reshape.remove();
      addNamedTool(server, 'fresh');
      await relisted(before);
      return 'reshaped';
    },
  });
  return { server, served };
}

describe.each(WAYS)('list changes (%s era over %s)', (era: Era, way) => {
  it('re-lists on list-changed: added and removed tools, names re-planned', async () => {
    const alpha = namedServer('alpha', ['echo']);
    const { registry, log, provider } = newProvider();
    const client = await provider.connect('alpha', await targetOf(alpha, way), {
      client: { era },
    });
    expect(client.era).toBe(era);
    await provider.connect('beta', await targetOf(namedServer('beta', ['mul']), way), {
      client: { era },
    });
    expect(namesOf(registry)).toEqual(['echo', 'mul']);

    let mark = log.mark();
    const late = addNamedTool(alpha, 'late');
    await log.waitFor((e) => e.type === 'tool-registered' && e.name === 'late', 'late', {
      from: mark,
    });
    expect(namesOf(registry)).toEqual(['echo', 'late', 'mul']);
    expect(textOf(await registry.get('late')?.invoke({ message: 'x' }, ctx()))).toBe(
      'alpha:late:x',
    );

    // alpha now offers beta's `mul` too: both become prefixed, beta's by a rename.
    const staleMul = registry.get('mul');
    mark = log.mark();
    addNamedTool(alpha, 'mul');
    await log.waitFor((e) => e.type === 'tool-registered' && e.name === 'alpha__mul', 'mul', {
      from: mark,
    });
    expect(log.since(mark)).toEqual([
      'registered alpha mul alpha__mul',
      'renamed beta mul mul>beta__mul',
    ]);

    const staleLate = registry.get('late');
    mark = log.mark();
    late.remove();
    const gone = await log.waitFor((e) => e.type === 'tool-unregistered', 'late removed', {
      from: mark,
    });
    expect(gone).toEqual({
      type: 'tool-unregistered',
      server: 'alpha',
      tool: 'late',
      name: 'late',
      reason: 'the server no longer lists it',
    });
    expect(namesOf(registry)).toEqual(['alpha__mul', 'beta__mul', 'echo']);
    expect(log.of('relist-failed')).toEqual([]);
    // References held from before fail here, without reaching a server that is still up.
    await expect(staleLate?.invoke({ message: 'x' }, ctx())).rejects.toThrow(
      'tool "late" is unavailable: server "alpha" no longer offers it: the server no longer lists it',
    );
    await expect(staleMul?.invoke({ message: 'x' }, ctx())).rejects.toThrow(
      'server "beta" renamed it to "beta__mul"',
    );
  });

  it('a change made during a call: the call completes, then the registry matches the server', async () => {
    const { served } = reshapingServer();
    const { registry, log, provider } = newProvider();
    await provider.connect('shifting', await targetOf(served, way), { client: { era } });
    expect(namesOf(registry)).toEqual(['old', 'reshape', 'stay']);
    const reshape = registry.get('reshape');
    const mark = log.mark();

    const outcome = await reshape?.invoke({}, ctx());
    expect(textOf(outcome)).toBe('reshaped');
    await log.waitFor((e) => e.type === 'tool-registered' && e.name === 'fresh', 'fresh', {
      from: mark,
    });
    expect(namesOf(registry)).toEqual(serverNames(served));
    expect(namesOf(registry)).toEqual(['fresh', 'stay']);
    expect(log.since(mark)).toEqual([
      'unregistered shifting old old',
      'unregistered shifting reshape reshape',
      'registered shifting fresh fresh',
    ]);
    expect(textOf(await registry.get('fresh')?.invoke({ message: 'new' }, ctx()))).toBe(
      'shifting:fresh:new',
    );
    // A stale reference to a tool the live server dropped reaches the server, which refuses.
    const stale = await reshape?.invoke({}, ctx()).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(Error);
  });
});

describe('following changes, or not', () => {
  it('a tool whose definition changed is registered again, with the reason', async () => {
    const alpha = namedServer('alpha', ['echo']);
    let description = 'first';
    const served = withOperations(alpha, (base) => ({
      listTools: (cursor) => {
        const page = base.listTools(cursor);
        return { ...page, tools: page.tools.map((tool) => ({ ...tool, description })) };
      },
    }));
    const { registry, log, provider } = newProvider();
    await provider.connect('alpha', memoryTarget(served, 'alpha').target);
    const before = registry.get('echo');
    expect(before?.description).toBe('first');

    const mark = log.mark();
    description = 'second';
    addNamedTool(alpha, 'other');
    await log.waitFor((e) => e.type === 'tool-registered' && e.name === 'other', 'other', {
      from: mark,
    });
    expect(log.since(mark)).toEqual([
      'unregistered alpha echo echo',
      'registered alpha echo echo',
      'registered alpha other other',
    ]);
    expect(log.of('tool-unregistered').at(-1)?.reason).toBe('its definition changed');
    expect(registry.get('echo')?.description).toBe('second');
    expect(registry.get('echo')).not.toBe(before);
  });

  it('followChanges: false ignores list-changed; refresh() picks the change up', async () => {
    const alpha = namedServer('alpha', ['echo']);
    const { registry, log, provider } = newProvider();
    await provider.connect('alpha', memoryTarget(alpha, 'alpha').target, {
      followChanges: false,
    });
    // The watcher sees every registry edit: none may happen before refresh().
    const edits: string[] = [];
    registry.watch((change) => edits.push(`${change.type} ${change.name}`));
    addNamedTool(alpha, 'late');
    // A followed server announces within the same turns; this one's listing must not move.
    const probe = namedServer('probe', ['p']);
    await provider.connect('probe', memoryTarget(probe, 'probe').target);
    addNamedTool(probe, 'q');
    await log.waitFor((e) => e.type === 'tool-registered' && e.name === 'q', 'probe change');
    expect(edits).toEqual(['registered p', 'registered q']);
    expect(namesOf(registry)).toEqual(['echo', 'p', 'q']);

    await provider.refresh('alpha');
    expect(namesOf(registry)).toEqual(['echo', 'late', 'p', 'q']);
    await expect(provider.refresh('nobody')).rejects.toThrow('no server named "nobody"');
  });
});
