/**
 * Servers going away: a stdio child killed, a stdio server exiting in the middle of a call, an
 * in-memory connection dropped by the server, and explicit detach/close. Their tools leave the
 * registry (with a reason), names prefixed because of them become bare again, and a stale
 * reference to one of their tools rejects with `ToolUnavailableError`.
 */
import { McpClient } from '@twofold/client/experimental';
import { describe, expect, it } from 'vitest';
import { ToolUnavailableError } from '../../src/import/errors';
import type { HostTool } from '../../src/registry/types';
import { PROCESS_TIMEOUT, signalable, trackedStdio, tsFixture, useImportEnv } from './support/env';
import { ctx, type EventLog, namesOf, newProvider, textOf } from './support/events';
import { memoryTarget, namedServer, slowToStart } from './support/servers';

useImportEnv();

const stdioGamma = () => trackedStdio(tsFixture('named-stdio.ts', ['gamma', 'echo', 'add']));
const alphaTarget = () => memoryTarget(namedServer('alpha', ['echo', 'add']), 'alpha').target;

/** A provider with `alpha` (in memory) and `gamma` (a stdio child) connected. */
async function alphaAndGamma() {
  const { registry, log, provider } = newProvider();
  await provider.connect('alpha', alphaTarget());
  const gamma = stdioGamma();
  await provider.connect('gamma', gamma.target);
  return { registry, log, provider, gamma };
}

/** No registered tool points at `server` any more. */
function expectNoToolOf(registry: { list(): HostTool[] }, server: string): void {
  expect(registry.list().filter((tool) => tool.origin?.server === server)).toEqual([]);
}

function detached(log: EventLog, server: string, from: number) {
  return log.waitFor((e) => e.type === 'server-detached' && e.server === server, server, {
    from,
    timeoutMs: 4000,
  });
}

/** What `tool`'s call rejects with; fails the test when it resolves. */
async function rejection(
  tool: HostTool | undefined,
  args: Record<string, unknown> = { message: 'late' },
): Promise<unknown> {
  if (!tool) throw new Error('no tool');
  const outcome = await tool.invoke(args, ctx()).catch((error: unknown) => ({ error }));
  if (!('error' in outcome)) throw new Error(`resolved: ${JSON.stringify(outcome)}`);
  return outcome.error;
}

describe('a server that goes away', () => {
  it('stdio child killed: its tools are unregistered and prefixed names become bare', {
    timeout: PROCESS_TIMEOUT,
  }, async () => {
    const { registry, log, provider, gamma } = await alphaAndGamma();
    expect(namesOf(registry)).toEqual([
      'alpha__add',
      'alpha__echo',
      'gamma__add',
      'gamma__echo',
      'quit',
    ]);
    const stale = registry.get('gamma__echo');
    expect(textOf(await stale?.invoke({ message: 'up' }, ctx()))).toBe('gamma:echo:up');

    const mark = log.mark();
    process.kill(gamma.pid(), 'SIGKILL');
    const event = await detached(log, 'gamma', mark);
    expect(event).toMatchObject({ reason: expect.stringMatching(/^disconnected/) });
    expect(log.since(mark)).toEqual([
      'unregistered gamma add gamma__add',
      'unregistered gamma echo gamma__echo',
      'unregistered gamma quit quit',
      'renamed alpha add alpha__add>add',
      'renamed alpha echo alpha__echo>echo',
      'detached gamma',
    ]);
    for (const gone of log.of('tool-unregistered')) {
      expect(gone.reason).toBe((event as { reason: string }).reason);
    }
    expect(namesOf(registry)).toEqual(['add', 'echo']);
    expectNoToolOf(registry, 'gamma');
    expect(provider.servers()).toEqual(['alpha']);
    expect(provider.origin('echo')).toEqual({ server: 'alpha', tool: 'echo' });
    expect(textOf(await registry.get('echo')?.invoke({ message: 'x' }, ctx()))).toBe(
      'alpha:echo:x',
    );

    const error = await rejection(stale);
    expect(error).toBeInstanceOf(ToolUnavailableError);
    expect(error).toMatchObject({ toolName: 'gamma__echo', server: 'gamma' });
    expect(signalable(gamma.pid())).toBe(false);
  });

  it('stdio server exiting during a call: the call rejects, the server is detached', {
    timeout: PROCESS_TIMEOUT,
  }, async () => {
    const { registry, log } = await alphaAndGamma();
    const mark = log.mark();

    const quit = await rejection(registry.get('quit'), {});
    // The server was there when called: the call fails as the connection does.
    expect(quit).not.toBeInstanceOf(ToolUnavailableError);
    expect(quit).toMatchObject({ message: expect.stringContaining('exited with code 3') });
    await detached(log, 'gamma', mark);
    expect(namesOf(registry)).toEqual(['add', 'echo']);
    expectNoToolOf(registry, 'gamma');
    expect(textOf(await registry.get('echo')?.invoke({ message: 'x' }, ctx()))).toBe(
      'alpha:echo:x',
    );
  });

  it.each(['modern', 'legacy'] as const)(
    'an in-memory connection dropped by the server (%s)',
    async (era) => {
      const { registry, log, provider } = newProvider();
      const beta = memoryTarget(namedServer('beta', ['echo', 'mul']), 'beta');
      await provider.connect('alpha', alphaTarget(), { client: { era } });
      const client = await provider.connect('beta', beta.target, { client: { era } });
      const stale = registry.get('beta__echo');
      const mark = log.mark();

      await beta.drop();
      await detached(log, 'beta', mark);
      expect(client.closed).toBe(true);
      expect(namesOf(registry)).toEqual(['add', 'echo']);
      expect(log.of('tool-renamed').slice(-1)).toEqual([
        { type: 'tool-renamed', server: 'alpha', tool: 'echo', from: 'alpha__echo', to: 'echo' },
      ]);
      expectNoToolOf(registry, 'beta');
      expect(await rejection(stale)).toBeInstanceOf(ToolUnavailableError);
    },
  );
});

describe('a server that never comes up', () => {
  it('connect rejects, nothing is registered or reported, and the name is free', {
    timeout: PROCESS_TIMEOUT,
  }, async () => {
    const { registry, log, provider } = newProvider();
    const dead = trackedStdio({ command: process.execPath, args: ['-e', 'process.exit(5)'] });
    await expect(provider.connect('gamma', dead.target)).rejects.toThrow();
    expect(namesOf(registry)).toEqual([]);
    expect(provider.servers()).toEqual([]);
    expect(log.events).toEqual([]);
    await provider.connect('gamma', alphaTarget());
    expect(namesOf(registry)).toEqual(['add', 'echo']);
  });
});

describe('detach and close', () => {
  it('detach(): tools leave with its reason, an owned client is closed, the name is reusable', async () => {
    const { registry, log, provider } = newProvider();
    await provider.connect('alpha', alphaTarget());
    const beta = await provider.connect(
      'beta',
      memoryTarget(namedServer('beta', ['echo']), 'b').target,
    );
    const stale = registry.get('beta__echo');
    const mark = log.mark();

    await provider.detach('beta', 'not needed');
    expect(log.since(mark)).toEqual([
      'unregistered beta echo beta__echo',
      'renamed alpha echo alpha__echo>echo',
      'detached beta',
    ]);
    expect(log.of('tool-unregistered').at(-1)?.reason).toBe('not needed');
    expect(log.of('server-detached').at(-1)?.reason).toBe('not needed');
    expect(beta.closed).toBe(true);
    expect(await rejection(stale)).toMatchObject({
      message: expect.stringContaining('was detached (not needed)'),
    });
    await provider.detach('beta');

    // Re-attached under the same name: the old reference stays dead, the new one works.
    await provider.connect('beta', memoryTarget(namedServer('beta', ['echo']), 'b2').target);
    expect(await rejection(stale)).toBeInstanceOf(ToolUnavailableError);
    const fresh = registry.get('beta__echo');
    expect(textOf(await fresh?.invoke({ message: 'again' }, ctx()))).toBe('beta:echo:again');
  });

  it('close() while a stdio server is still connecting: it is refused and stopped', {
    timeout: PROCESS_TIMEOUT,
  }, async () => {
    const { registry, log, provider } = newProvider();
    const gamma = stdioGamma();
    const { target, release } = slowToStart(gamma.target);
    const connecting = provider.connect('gamma', target);
    await provider.close();
    release();
    await expect(connecting).rejects.toThrow('the tool provider is closed');
    expect(namesOf(registry)).toEqual([]);
    expect(log.events).toEqual([]);
    expect(signalable(gamma.pid())).toBe(false);
  });

  it('attach(): the provider does not close a client it was given; close() detaches all', async () => {
    const own = await McpClient.connect(
      memoryTarget(namedServer('own', ['own_tool']), 'own').target,
      {
        clientInfo: { name: 'host', version: '1.0.0' },
      },
    );
    const { registry, log, provider } = newProvider();
    expect(await provider.attach('own', own)).toEqual([
      { server: 'own', tool: 'own_tool', name: 'own_tool' },
    ]);
    await provider.connect('alpha', alphaTarget());
    await expect(provider.attach('own', own)).rejects.toThrow('already attached');

    await provider.detach('own');
    expect(own.closed).toBe(false);
    expect(textOf(await own.callTool('own_tool', { message: 'still' }))).toBe('own:own_tool:still');

    await provider.close();
    expect(namesOf(registry)).toEqual([]);
    expect(log.of('server-detached').map((e) => [e.server, e.reason])).toEqual([
      ['own', 'detached'],
      ['alpha', 'provider closed'],
    ]);
    await expect(provider.connect('late', alphaTarget())).rejects.toThrow('provider is closed');
    await own.close();
  });
});
