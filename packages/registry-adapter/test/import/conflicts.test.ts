/**
 * Naming across servers, against real twofold servers over in-memory pairs: every conflict
 * policy on two servers that clash on `echo`, `origin()` back to the server's own name, calls
 * reaching the right server, and the events that report each decision.
 */
import { describe, expect, it } from 'vitest';
import { ToolNameConflictError } from '../../src/import/errors';
import type { ConflictResolver } from '../../src/names/types';
import { useImportEnv } from './support/env';
import { ctx, namesOf, newProvider, textOf } from './support/events';
import {
  addNamedTool,
  memoryTarget,
  namedServer,
  slowToStart,
  withToolAliases,
} from './support/servers';

useImportEnv();

const alpha = () => memoryTarget(namedServer('alpha', ['echo', 'add']), 'alpha');
const beta = () => memoryTarget(namedServer('beta', ['echo', 'mul']), 'beta');

async function call(
  registry: ReturnType<typeof newProvider>['registry'],
  name: string,
  message = 'hi',
) {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}; have ${namesOf(registry).join(', ')}`);
  return textOf(await tool.invoke({ message }, ctx()));
}

describe('conflict policies', () => {
  it('error: the clashing server is refused whole and its client closed', async () => {
    const { registry, log, provider } = newProvider({ conflictPolicy: 'error' });
    await provider.connect('alpha', alpha().target);
    const b = beta();
    const mark = log.mark();

    const refused = await provider.connect('beta', b.target).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolNameConflictError);
    expect(refused).toMatchObject({ toolName: 'echo', servers: ['alpha', 'beta'] });
    // Nothing of beta: not even its clash-free `mul`, and not a single event.
    expect(namesOf(registry)).toEqual(['add', 'echo']);
    expect(provider.servers()).toEqual(['alpha']);
    expect(log.since(mark)).toEqual([]);
    await (await b.connections[0])?.closed;
    expect(await call(registry, 'echo')).toBe('alpha:echo:hi');

    // The name is free again: beta without its clashing tool is accepted.
    await provider.connect('beta', beta().target, { filter: { deny: ['echo'] } });
    expect(namesOf(registry)).toEqual(['add', 'echo', 'mul']);
    expect(await call(registry, 'mul')).toBe('beta:mul:hi');
  });

  it('error: a clash that appears on re-list leaves the tool out with a warning', async () => {
    const { registry, log, provider } = newProvider({ conflictPolicy: 'error' });
    await provider.connect('alpha', alpha().target);
    const bServer = namedServer('beta', ['mul']);
    await provider.connect('beta', memoryTarget(bServer, 'beta').target);
    const mark = log.mark();
    addNamedTool(bServer, 'echo');
    await log.waitFor((e) => e.type === 'warning', 'the warning', { from: mark });
    expect(log.since(mark)).toEqual(['skipped beta echo conflict', 'warning beta']);
    expect(log.of('warning').at(-1)?.message).toBe(
      'tool "echo" of server "beta" refused: server "alpha" already offers "echo"',
    );
    expect(provider.origin('echo')).toEqual({ server: 'alpha', tool: 'echo' });
    expect(namesOf(registry)).toEqual(['add', 'echo', 'mul']);
  });

  it('error: a server re-added ahead of the holder is refused, and named last', async () => {
    const { registry, provider } = newProvider({ conflictPolicy: 'error' });
    await provider.connect('alpha', alpha().target);
    await provider.connect('beta', beta().target, { filter: { deny: ['echo'] } });
    await provider.detach('alpha');
    await provider.detach('beta');
    // beta comes back with `echo`; then alpha, whose place is still ahead of beta's.
    await provider.connect('beta', beta().target);
    const refused = await provider.connect('alpha', alpha().target).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ToolNameConflictError);
    expect(refused).toMatchObject({ toolName: 'echo', servers: ['beta', 'alpha'] });
    expect((refused as Error).message).toBe(
      'tool name "echo" is offered by servers "beta" and "alpha"',
    );
    expect(provider.origin('echo')).toEqual({ server: 'beta', tool: 'echo' });
    expect(namesOf(registry)).toEqual(['echo', 'mul']);
  });

  it('a name the host registry already holds is left out with a warning', async () => {
    const { registry, log, provider } = newProvider();
    const own = {
      name: 'echo',
      inputSchema: { type: 'object' },
      invoke: async () => ({ content: [] }),
    };
    registry.register(own);
    await provider.connect('alpha', alpha().target);
    expect(registry.get('echo')).toBe(own);
    expect(namesOf(registry)).toEqual(['add', 'echo']);
    const [skip] = log.of('tool-skipped').map((event) => event.skipped);
    expect(skip).toMatchObject({ server: 'alpha', tool: 'echo', reason: 'conflict' });
    expect(skip?.message).toContain('refused by the registry');
    expect(log.of('warning')).toEqual([
      { type: 'warning', server: 'alpha', message: skip?.message },
    ]);
    expect(provider.skipped()).toEqual([skip]);
  });

  it('first-wins: the earlier server keeps the name, with a warning naming both', async () => {
    const { registry, log, provider } = newProvider({ conflictPolicy: 'first-wins' });
    await provider.connect('alpha', alpha().target);
    const mark = log.mark();
    const assigned = await provider.connect('beta', beta().target);
    expect(assigned).toBeDefined();

    expect(namesOf(registry)).toEqual(['add', 'echo', 'mul']);
    expect(log.since(mark)).toEqual([
      'registered beta mul mul',
      'skipped beta echo conflict',
      'warning beta',
      'attached beta 2',
    ]);
    const warning = log.of('warning').at(-1);
    expect(warning?.message).toContain('"alpha"');
    expect(warning?.message).toContain('"beta"');
    expect(provider.skipped()).toEqual([
      { server: 'beta', tool: 'echo', reason: 'conflict', message: warning?.message },
    ]);
    expect(await call(registry, 'echo')).toBe('alpha:echo:hi');
    expect(provider.origin('echo')).toEqual({ server: 'alpha', tool: 'echo' });
    // Decided once, reported once: a re-list with no change reports nothing.
    const again = log.mark();
    await provider.refresh('beta');
    expect(log.since(again)).toEqual([]);
  });

  it('prefix-on-collision: only clashing names are prefixed, and calls reach their server', async () => {
    const { registry, log, provider } = newProvider();
    const first = await provider.connect('alpha', alpha().target);
    expect(first).toBeDefined();
    const mark = log.mark();
    await provider.connect('beta', beta().target);

    expect(namesOf(registry)).toEqual(['add', 'alpha__echo', 'beta__echo', 'mul']);
    // alpha's bare `echo` was renamed, not dropped and re-added.
    expect(log.since(mark)).toEqual([
      'renamed alpha echo echo>alpha__echo',
      'registered beta echo beta__echo',
      'registered beta mul mul',
      'attached beta 2',
    ]);
    expect(provider.origin('alpha__echo')).toEqual({ server: 'alpha', tool: 'echo' });
    expect(provider.origin('beta__echo')).toEqual({ server: 'beta', tool: 'echo' });
    expect(provider.origin('mul')).toEqual({ server: 'beta', tool: 'mul' });
    expect(provider.origin('echo')).toBeUndefined();
    expect(registry.get('beta__echo')?.origin).toEqual({ server: 'beta', tool: 'echo' });
    expect(await call(registry, 'alpha__echo')).toBe('alpha:echo:hi');
    expect(await call(registry, 'beta__echo')).toBe('beta:echo:hi');
    expect(await call(registry, 'add')).toBe('alpha:add:hi');
    expect(provider.assignments()).toEqual([
      { server: 'alpha', tool: 'add', name: 'add' },
      { server: 'alpha', tool: 'echo', name: 'alpha__echo' },
      { server: 'beta', tool: 'echo', name: 'beta__echo' },
      { server: 'beta', tool: 'mul', name: 'mul' },
    ]);
  });

  it('always-prefix: every tool is {server}__{tool}', async () => {
    const { registry, log, provider } = newProvider({ conflictPolicy: 'always-prefix' });
    await provider.connect('alpha', alpha().target);
    await provider.connect('beta', beta().target);
    expect(namesOf(registry)).toEqual(['alpha__add', 'alpha__echo', 'beta__echo', 'beta__mul']);
    expect(log.of('tool-renamed')).toEqual([]);
    expect(provider.origin('beta__mul')).toEqual({ server: 'beta', tool: 'mul' });
    expect(await call(registry, 'beta__echo')).toBe('beta:echo:hi');
    expect(await call(registry, 'alpha__echo')).toBe('alpha:echo:hi');
  });

  it('a custom resolver names each claimant, or leaves it out', async () => {
    const asked: Parameters<ConflictResolver>[0][] = [];
    const resolver: ConflictResolver = (clash) => {
      asked.push(clash);
      if (clash.server === 'gamma') return undefined;
      // Not valid as it is: the provider still fits the chosen name to the rules.
      return clash.server === 'alpha' ? clash.tool : `${clash.tool} from ${clash.server}`;
    };
    const { registry, log, provider } = newProvider({ conflictPolicy: resolver });
    await provider.connect('alpha', alpha().target);
    expect(asked).toEqual([]);
    await provider.connect('beta', beta().target);
    await provider.connect('gamma', memoryTarget(namedServer('gamma', ['echo']), 'gamma').target);

    expect(namesOf(registry)).toEqual(['add', 'echo', 'echo_from_beta', 'mul']);
    expect(provider.origin('echo_from_beta')).toEqual({ server: 'beta', tool: 'echo' });
    expect(await call(registry, 'echo_from_beta')).toBe('beta:echo:hi');
    expect(await call(registry, 'echo')).toBe('alpha:echo:hi');
    expect(asked.at(-1)).toEqual({
      server: 'gamma',
      tool: 'echo',
      clashesWith: [
        { server: 'alpha', tool: 'echo' },
        { server: 'beta', tool: 'echo' },
      ],
    });
    const declined = log.of('tool-skipped').map((event) => event.skipped);
    expect(declined).toEqual([
      expect.objectContaining({ server: 'gamma', tool: 'echo', reason: 'resolver-declined' }),
    ]);
  });
});

describe('provider order', () => {
  it('"earlier" is the order servers were added, not the order they connected', async () => {
    const { registry, log, provider } = newProvider({ conflictPolicy: 'first-wins' });
    const { target, release } = slowToStart(alpha().target);
    const slow = provider.connect('alpha', target);
    await provider.connect('beta', beta().target);
    expect(provider.origin('echo')).toEqual({ server: 'beta', tool: 'echo' });

    const mark = log.mark();
    release();
    await slow;
    // alpha was added first: it takes `echo`, whatever connected first.
    expect(provider.servers()).toEqual(['alpha', 'beta']);
    expect(provider.origin('echo')).toEqual({ server: 'alpha', tool: 'echo' });
    expect(namesOf(registry)).toEqual(['add', 'echo', 'mul']);
    expect(log.since(mark)).toEqual([
      'unregistered beta echo echo',
      'registered alpha add add',
      'registered alpha echo echo',
      'skipped beta echo conflict',
      'warning beta',
      'attached alpha 2',
    ]);
    expect(await call(registry, 'echo')).toBe('alpha:echo:hi');
  });
});

describe('names the host accepts', () => {
  const LONG = 'very_long_tool_name_'.repeat(10);

  it('a 200-character tool name gets a valid host name of at most 64 characters', async () => {
    expect(LONG).toHaveLength(200);
    const server = namedServer('long', ['long_one', 'short']);
    const served = withToolAliases(server, { long_one: LONG });
    const { registry, log, provider } = newProvider();
    await provider.connect('long', memoryTarget(served, 'long').target);

    const [other, hostName] = namesOf(registry);
    expect(other).toBe('short');
    expect(hostName).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(hostName).toHaveLength(64);
    // A readable prefix of the name, then a hash of all of it.
    expect(hostName?.slice(0, 55)).toBe(LONG.slice(0, 55));
    expect(hostName?.slice(55)).toMatch(/^_[0-9a-f]{8}$/);
    expect(provider.origin(hostName as string)).toEqual({ server: 'long', tool: LONG });
    expect(log.of('tool-registered')).toContainEqual({
      type: 'tool-registered',
      server: 'long',
      tool: LONG,
      name: hostName,
    });
    // The call goes out under the server's own 200-character name.
    expect(await call(registry, hostName as string, 'far')).toBe('long:long_one:far');
  });

  it('two servers clashing on a long name get distinct prefixed names', async () => {
    const { registry, provider } = newProvider();
    for (const name of ['north', 'south']) {
      const served = withToolAliases(namedServer(name, ['long_one']), { long_one: LONG });
      await provider.connect(name, memoryTarget(served, name).target);
    }
    const names = namesOf(registry);
    expect(names).toHaveLength(2);
    for (const name of names) expect(name).toMatch(/^(north|south)__very_long_[\w-]+_[0-9a-f]{8}$/);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(64);
    const south = names.find((name) => name.startsWith('south__')) as string;
    expect(provider.origin(south)).toEqual({ server: 'south', tool: LONG });
    expect(await call(registry, south, 'x')).toBe('south:long_one:x');
  });
});

describe('per-server filters', () => {
  it('allow and deny lists leave tools out with tool-skipped events; filtered names clash with nothing', async () => {
    const tools = ['echo', 'add', 'debug_dump', 'debug_trace', 'secret'];
    const { registry, log, provider } = newProvider({ conflictPolicy: 'error' });
    await provider.connect('alpha', memoryTarget(namedServer('alpha', tools), 'alpha').target, {
      filter: { allow: ['echo', 'debug_*', 'secret'], deny: ['debug_trace', 'sec*'] },
    });
    expect(namesOf(registry)).toEqual(['debug_dump', 'echo']);
    const skipped = log.of('tool-skipped').map((event) => event.skipped);
    expect(skipped.map(({ tool, reason }) => [tool, reason])).toEqual([
      ['add', 'filtered'],
      ['debug_trace', 'filtered'],
      ['secret', 'filtered'],
    ]);
    expect(skipped[0]?.message).toContain('not in the allow list');
    expect(skipped[1]?.message).toContain('denied by "debug_trace"');
    expect(skipped[2]?.message).toContain('denied by "sec*"');
    expect(log.of('server-attached')).toEqual([
      { type: 'server-attached', server: 'alpha', tools: 2 },
    ]);

    // beta's `add` does not clash with alpha's filtered one, even under `error`.
    await provider.connect('beta', memoryTarget(namedServer('beta', ['add']), 'beta').target);
    expect(namesOf(registry)).toEqual(['add', 'debug_dump', 'echo']);
    expect(await call(registry, 'add')).toBe('beta:add:hi');
    expect(provider.skipped()).toEqual(skipped);
  });
});
