/**
 * The provider's listen streams against real twofold servers: a stream the server ends is
 * reopened (and what changed in between is caught up), one that keeps ending is given up with
 * a warning, a refused listen is a warning, a failed re-list is an event, and a server
 * detached while its stream reopens leaves no subscription open.
 */
import { McpClient } from '@twofold/client/experimental';
import { McpServer, type ServedServer } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import { afterTest, until, useImportEnv } from './support/env';
import { namesOf, newProvider } from './support/events';
import { httpFront } from './support/http-front';
import { addNamedTool, memoryTarget, namedServer, withOperations } from './support/servers';

useImportEnv();

/**
 * `server` served with counts of its change feeds: open now, and opened in all. The server
 * holds one feed while any modern listen is open.
 */
function counted(server: McpServer) {
  let open = 0;
  let opened = 0;
  const served: ServedServer = withOperations(server, (base) => ({
    onChange: (listener) => {
      open++;
      opened++;
      const off = base.onChange(listener);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        open--;
        off();
      };
    },
  }));
  return { served, open: () => open, opened: () => opened };
}

describe('listen streams', () => {
  it('a stream the server ends is reopened; a change made in between is caught up', async () => {
    const server = namedServer('alpha', ['echo']);
    const front = await httpFront(server);
    const { registry, log, provider } = newProvider();
    await provider.connect('alpha', front.target);
    await front.listensArrived(1);

    // Hold the reopened listen: a change now reaches no stream at all.
    const release = front.holdListens();
    await front.restart();
    await front.listensArrived(2);
    addNamedTool(server, 'between');
    const mark = log.mark();
    release();
    await log.waitFor((e) => e.type === 'tool-registered' && e.name === 'between', 'catch-up', {
      from: mark,
    });

    // And the reopened stream carries later changes.
    addNamedTool(server, 'after');
    await log.waitFor((e) => e.type === 'tool-registered' && e.name === 'after', 'after', {
      from: mark,
    });
    expect(namesOf(registry)).toEqual(['after', 'between', 'echo']);
    expect(log.of('warning')).toEqual([]);
  });

  it('a stream that keeps ending is given up after five opens, with a warning', async () => {
    const server = namedServer('alpha', ['echo']);
    const front = await httpFront(server);
    const { registry, log, provider } = newProvider();
    await provider.connect('alpha', front.target);
    for (let opened = 1; opened <= 5; opened++) {
      await front.listensArrived(opened);
      await front.restart();
    }
    const warning = await log.waitFor((e) => e.type === 'warning', 'the warning');
    expect(warning).toEqual({
      type: 'warning',
      server: 'alpha',
      message:
        'stopped following tool list changes of server "alpha": its listen stream ended 5 times',
    });
    // Still imported, just no longer followed.
    expect(provider.servers()).toEqual(['alpha']);
    expect(namesOf(registry)).toEqual(['echo']);
  });

  it('a server detached while its stream reopens leaves no subscription open', async () => {
    const { served, open, opened } = counted(namedServer('alpha', ['echo']));
    const front = await httpFront(served);
    // The host's own client: detach does not close it, so only the provider can end the stream.
    const client = await McpClient.connect(front.target, {
      clientInfo: { name: 'host', version: '1.0.0' },
    });
    afterTest(() => client.close());
    const { registry, provider } = newProvider();
    await provider.attach('alpha', client);
    await front.listensArrived(1);
    expect(open()).toBe(1);

    const release = front.holdListens();
    await front.restart();
    await front.listensArrived(2);
    await provider.detach('alpha');
    expect(namesOf(registry)).toEqual([]);
    release();
    await until(() => opened() === 2, 'the reopened listen to be served');
    await until(() => open() === 0, 'the reopened listen to be closed', 3000);
    expect(client.closed).toBe(false);
  });

  it('a listen the server refuses is a warning; the tools are imported unfollowed', async () => {
    const server = new McpServer({
      name: 'busy',
      version: '1.0.0',
      listen: { maxSubscriptions: 1 },
    });
    addNamedTool(server, 'echo');
    const { registry, log, provider } = newProvider({ conflictPolicy: 'always-prefix' });
    await provider.connect('one', memoryTarget(server, 'one').target);
    await provider.connect('two', memoryTarget(server, 'two').target);
    expect(namesOf(registry)).toEqual(['one__echo', 'two__echo']);
    const [warning, ...more] = log.of('warning');
    expect(more).toEqual([]);
    expect(warning).toMatchObject({
      server: 'two',
      message: expect.stringMatching(/^listening to server "two" failed: .*Too many open/),
    });
  });

  it('a re-list that fails is reported, and the registry keeps what it had', async () => {
    const server = namedServer('alpha', ['echo']);
    let broken = false;
    const served = withOperations(server, (base) => ({
      listTools: (cursor) => {
        if (broken) throw new Error('listing is broken');
        return base.listTools(cursor);
      },
    }));
    const { registry, log, provider } = newProvider();
    await provider.connect('alpha', memoryTarget(served, 'alpha').target);
    broken = true;
    addNamedTool(server, 'late');
    const failed = await log.waitFor((e) => e.type === 'relist-failed', 'relist-failed');
    expect(failed).toMatchObject({ server: 'alpha', error: expect.any(Error) });
    expect(namesOf(registry)).toEqual(['echo']);

    broken = false;
    await provider.refresh('alpha');
    expect(namesOf(registry)).toEqual(['echo', 'late']);
  });
});
