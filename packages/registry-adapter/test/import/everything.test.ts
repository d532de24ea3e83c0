/**
 * The provider against whole servers in their own processes over stdio: twofold's everything
 * server (modern) and the official `@modelcontextprotocol/server-everything` (legacy). Import,
 * call through the registry, follow a change, detach or close, and leave no process behind.
 */
import { describe, expect, it } from 'vitest';
import { recordingResolver } from './support/asking-server';
import {
  PROCESS_TIMEOUT,
  referenceEverything,
  signalable,
  trackedStdio,
  twofoldEverything,
  useImportEnv,
} from './support/env';
import { ctx, namesOf, newProvider, textOf } from './support/events';

useImportEnv();

describe('servers in their own processes', () => {
  it('twofold everything: import, call, follow a change, answer input, detach', {
    timeout: PROCESS_TIMEOUT,
  }, async () => {
    const resolver = recordingResolver();
    const { registry, log, provider } = newProvider({ resolver });
    const server = trackedStdio(twofoldEverything());
    const client = await provider.connect('everything', server.target);
    expect(client.era).toBe('modern');
    const names = namesOf(registry);
    expect(names).toEqual(expect.arrayContaining(['add', 'echo', 'test_placeholder_tool']));
    expect(log.of('server-attached')).toEqual([
      { type: 'server-attached', server: 'everything', tools: names.length },
    ]);
    expect(textOf(await registry.get('echo')?.invoke({ message: 'héllo' }, ctx()))).toBe('héllo');
    const sum = await registry.get('add')?.invoke({ a: 2, b: 3 }, ctx());
    expect(sum).toMatchObject({ structuredContent: { sum: 5 } });

    // Its trigger tool disables a placeholder tool and announces the change.
    const mark = log.mark();
    await registry.get('test_trigger_tool_change')?.invoke({}, ctx());
    const gone = await log.waitFor((e) => e.type === 'tool-unregistered', 'placeholder gone', {
      from: mark,
    });
    expect(gone).toMatchObject({ name: 'test_placeholder_tool', reason: expect.any(String) });
    expect(registry.get('test_placeholder_tool')).toBeUndefined();

    const asked = registry.get('test_input_required_result_elicitation');
    expect(textOf(await asked?.invoke({}, ctx()))).toBe('Hello, Ada!');
    expect(resolver.asked).toEqual(['elicitation/create test_input_required_result_elicitation']);

    const pid = server.pid();
    await provider.detach('everything');
    expect(namesOf(registry)).toEqual([]);
    expect(client.closed).toBe(true);
    expect(signalable(pid)).toBe(false);
    expect(server.opened).toHaveLength(1);
  });

  it('the official server-everything: import, call echo and get-sum, detach', {
    timeout: PROCESS_TIMEOUT,
  }, async () => {
    const { registry, log, provider } = newProvider();
    const server = trackedStdio(referenceEverything());
    const client = await provider.connect('reference', server.target);
    expect(client.era).toBe('legacy');
    expect(client.serverInfo).toMatchObject({ name: 'mcp-servers/everything' });
    const names = namesOf(registry);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    // Every host name is valid, and maps back to the server's own name.
    for (const name of names) {
      expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(provider.origin(name)).toEqual({ server: 'reference', tool: name });
    }
    expect(log.of('tool-registered')).toHaveLength(names.length);
    expect(textOf(await registry.get('echo')?.invoke({ message: 'héllo 🌍' }, ctx()))).toBe(
      'Echo: héllo 🌍',
    );
    expect(textOf(await registry.get('get-sum')?.invoke({ a: 2, b: 3 }, ctx()))).toContain('5');

    const pid = server.pid();
    await provider.detach('reference');
    expect(namesOf(registry)).toEqual([]);
    expect(log.of('server-detached')).toEqual([
      { type: 'server-detached', server: 'reference', reason: 'detached' },
    ]);
    expect(signalable(pid)).toBe(false);
  });

  it('both at once: clashing names are prefixed, close() stops both processes', {
    timeout: PROCESS_TIMEOUT,
  }, async () => {
    const { registry, provider } = newProvider();
    const twofold = trackedStdio(twofoldEverything());
    const reference = trackedStdio(referenceEverything());
    await Promise.all([
      provider.connect('twofold', twofold.target),
      provider.connect('reference', reference.target),
    ]);
    const names = namesOf(registry);
    expect(names).toEqual(expect.arrayContaining(['twofold__echo', 'reference__echo', 'get-sum']));
    expect(names).not.toContain('echo');
    expect(provider.origin('reference__echo')).toEqual({ server: 'reference', tool: 'echo' });
    expect(textOf(await registry.get('twofold__echo')?.invoke({ message: 'a' }, ctx()))).toBe('a');
    expect(textOf(await registry.get('reference__echo')?.invoke({ message: 'b' }, ctx()))).toBe(
      'Echo: b',
    );

    await provider.close();
    expect(namesOf(registry)).toEqual([]);
    expect(provider.servers()).toEqual([]);
    expect(signalable(twofold.pid())).toBe(false);
    expect(signalable(reference.pid())).toBe(false);
  });
});
