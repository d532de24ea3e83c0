/** InMemoryToolRegistry: code-point order, unique names, synchronous watchers. */
import { describe, expect, it } from 'vitest';
import { InMemoryToolRegistry } from '../../src/registry/memory';
import { compareNames } from '../../src/registry/order';
import type { HostTool, RegistryChange } from '../../src/registry/types';

function tool(name: string): HostTool {
  return {
    name,
    inputSchema: { type: 'object' },
    invoke: async () => ({ content: [{ type: 'text', text: name }] }),
  };
}

describe('InMemoryToolRegistry', () => {
  it('lists tools by name, whatever the registration order', () => {
    const registry = new InMemoryToolRegistry();
    for (const name of ['zeta', 'Alpha', 'alpha', 'beta_2', 'beta-1', 'beta']) {
      registry.register(tool(name));
    }
    // Code-point order: upper case before lower case, '-' (0x2d) before '_' (0x5f).
    expect(registry.list().map((t) => t.name)).toEqual([
      'Alpha',
      'alpha',
      'beta',
      'beta-1',
      'beta_2',
      'zeta',
    ]);
  });

  it('returns a fresh list each time', () => {
    const registry = new InMemoryToolRegistry();
    registry.register(tool('a'));
    const list = registry.list();
    list.pop();
    expect(registry.list()).toHaveLength(1);
  });

  it('gets a tool by name and keeps the object it was given', () => {
    const registry = new InMemoryToolRegistry();
    const search = tool('search');
    registry.register(search);
    expect(registry.get('search')).toBe(search);
    expect(registry.get('missing')).toBeUndefined();
  });

  it('refuses a second tool with a taken name and keeps the first', () => {
    const registry = new InMemoryToolRegistry();
    const first = tool('search');
    registry.register(first);
    expect(() => registry.register(tool('search'))).toThrow(
      'a tool named "search" is already registered',
    );
    expect(registry.get('search')).toBe(first);
    expect(registry.list()).toHaveLength(1);
  });

  it('unregisters by name, saying whether there was a tool', () => {
    const registry = new InMemoryToolRegistry();
    registry.register(tool('a'));
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.get('a')).toBeUndefined();
    // The name is free again.
    registry.register(tool('a'));
    expect(registry.list().map((t) => t.name)).toEqual(['a']);
  });

  it('reports each change to every watcher after it is made', () => {
    const registry = new InMemoryToolRegistry();
    const seen: string[] = [];
    registry.watch((change) =>
      seen.push(`1:${change.type}:${change.name}:${registry.list().length}`),
    );
    registry.watch((change) => seen.push(`2:${change.type}:${change.name}`));
    registry.register(tool('a'));
    registry.unregister('a');
    expect(seen).toEqual([
      '1:registered:a:1',
      '2:registered:a',
      '1:unregistered:a:0',
      '2:unregistered:a',
    ]);
  });

  it('reports nothing for a refused register or an unregister of nothing', () => {
    const registry = new InMemoryToolRegistry();
    registry.register(tool('a'));
    const changes: RegistryChange[] = [];
    registry.watch((change) => changes.push(change));
    expect(() => registry.register(tool('a'))).toThrow();
    registry.unregister('missing');
    expect(changes).toEqual([]);
  });

  it('a watcher that throws neither undoes the change nor hides it from the others', () => {
    const registry = new InMemoryToolRegistry();
    const seen: string[] = [];
    registry.watch(() => {
      throw new Error('watcher bug');
    });
    registry.watch((change) => seen.push(`${change.type}:${change.name}`));
    expect(() => registry.register(tool('a'))).not.toThrow();
    expect(registry.get('a')?.name).toBe('a');
    expect(seen).toEqual(['registered:a']);
  });

  it('stops reporting once the watcher unsubscribes', () => {
    const registry = new InMemoryToolRegistry();
    const changes: RegistryChange[] = [];
    const stop = registry.watch((change) => changes.push(change));
    registry.register(tool('a'));
    stop();
    registry.register(tool('b'));
    expect(changes).toEqual([{ type: 'registered', name: 'a' }]);
  });

  it('lets a watcher unsubscribe or subscribe another while a change is reported', () => {
    const registry = new InMemoryToolRegistry();
    const seen: string[] = [];
    const stopFirst = registry.watch(() => {
      seen.push('first');
      stopFirst();
      registry.watch(() => seen.push('late'));
    });
    registry.watch(() => seen.push('second'));
    registry.register(tool('a'));
    // The change goes to the watchers present when it happened.
    expect(seen).toEqual(['first', 'second']);
    registry.register(tool('b'));
    expect(seen).toEqual(['first', 'second', 'second', 'late']);
  });

  it('lets a watcher change the registry', () => {
    const registry = new InMemoryToolRegistry();
    const changes: string[] = [];
    registry.watch((change) => {
      changes.push(`${change.type}:${change.name}`);
      if (change.type === 'registered' && change.name === 'a') registry.register(tool('b'));
    });
    registry.register(tool('a'));
    expect(changes).toEqual(['registered:a', 'registered:b']);
    expect(registry.list().map((t) => t.name)).toEqual(['a', 'b']);
  });
});

describe('compareNames', () => {
  it.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['a', 'a', 0],
    ['', 'a', -1],
    ['ab', 'a', 1],
    ['B', 'a', -1],
    ['_', 'a', -1],
    ['-', '_', -1],
    // U+FF01 is below U+1F600 as a code point, although its UTF-16 unit is above 0xD83D.
    ['\uff01', '\u{1f600}', -1],
    ['\u{1f600}', '\uff01', 1],
    ['x\u{1f600}', 'x\u{1f601}', -1],
    ['\u{1f600}', '\u{1f600}a', -1],
  ])('compareNames(%j, %j) is %i', (a, b, sign) => {
    expect(Math.sign(compareNames(a, b))).toBe(sign);
  });

  it('does not depend on the locale', () => {
    const names = ['é', 'e', 'z', 'E'];
    expect([...names].sort(compareNames)).toEqual(['E', 'e', 'z', 'é']);
  });
});
