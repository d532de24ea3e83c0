/**
 * `McpClient` before `connect()` and after `close()`: every call rejects (`NOT_CONNECTED`,
 * then `CONNECTION_CLOSED`), in both eras, and nothing reaches the server after close.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client';
import {
  CLIENT_INFO,
  connectClient,
  ERAS,
  rejectionOf,
  serveTarget,
  useClientCleanups,
} from '../support/client-harness';
import { buildApiServer } from '../support/client-server';

useClientCleanups();

/** Every call of the client, each as a promise (a synchronous throw becomes a rejection). */
function everyCall(client: McpClient): Record<string, () => Promise<unknown>> {
  const drain = async (items: AsyncIterable<unknown>) => {
    for await (const _ of items) {
      // drain
    }
  };
  return {
    discover: () => client.discover(),
    listTools: () => client.listTools(),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    listPrompts: () => client.listPrompts(),
    iterateTools: () => drain(client.iterateTools()),
    iterateResources: () => drain(client.iterateResources()),
    iterateResourceTemplates: () => drain(client.iterateResourceTemplates()),
    iteratePrompts: () => drain(client.iteratePrompts()),
    callTool: () => client.callTool('echo', { text: 'x' }),
    readResource: () => client.readResource('test://one'),
    getPrompt: () => client.getPrompt('greet'),
    complete: () =>
      client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'a' },
      }),
    ping: () => client.ping(),
    request: () => client.request('tools/list'),
  };
}

/** Calls `run`, turning a synchronous throw into a rejection. */
function settle(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

async function expectAll(client: McpClient, code: LocalErrorCode): Promise<void> {
  for (const [name, run] of Object.entries(everyCall(client))) {
    let returned: Promise<unknown> | undefined;
    let thrown: unknown;
    try {
      returned = run();
    } catch (error) {
      thrown = error;
    }
    // Methods returning promises must reject, not throw.
    expect(thrown, `${name} threw synchronously`).toBeUndefined();
    const error = await rejectionOf(returned ?? settle(run));
    expect(error, name).toBeInstanceOf(LocalError);
    expect((error as LocalError).code, name).toBe(code);
  }
}

describe('McpClient lifecycle', () => {
  it('rejects every call with NOT_CONNECTED before connect()', async () => {
    const client = new McpClient({ clientInfo: CLIENT_INFO });
    await expectAll(client, LocalErrorCode.NotConnected);
    expect(() => client.listen({ toolsListChanged: true })).toThrow(LocalError);
    expect(() => client.era).toThrow(LocalError);
    expect(client.closed).toBe(false);
    // Closing a client that never connected is harmless.
    await client.close();
  });

  it('rejects a second connect()', async () => {
    const served = serveTarget(buildApiServer());
    const { client } = await connectClient(served.target, { era: 'modern' });
    await expect(client.connect(served.target)).rejects.toThrow(/only once/);
    expect((await client.callTool('whisper')).content).toEqual([{ type: 'text', text: 'psst' }]);
  });

  it('connects through the static McpClient.connect', async () => {
    const served = serveTarget(buildApiServer());
    const client = await McpClient.connect(served.target, { clientInfo: CLIENT_INFO });
    expect(client.era).toBe('modern');
    await client.close();
    expect(client.closed).toBe(true);
  });

  describe.each(ERAS)('after close() (%s)', (era) => {
    it('rejects every call with CONNECTION_CLOSED and sends nothing', async () => {
      const served = serveTarget(buildApiServer());
      const { client } = await connectClient(served.target, { era });
      await client.listTools();
      await client.close();
      expect(client.closed).toBe(true);
      const before = served.received.length;
      await expectAll(client, LocalErrorCode.ConnectionClosed);
      expect(served.received.length).toBe(before);

      const stream = client.listen({ toolsListChanged: true });
      const failure = await rejectionOf(stream.acknowledged);
      expect((failure as LocalError).code).toBe(LocalErrorCode.ConnectionClosed);
      await stream.close();
      // The facts learned while connected stay readable.
      expect(client.era).toBe(era);
      await client.close();
    });

    it('rejects calls pending at close() with CONNECTION_CLOSED', async () => {
      const server = buildApiServer();
      server.registerTool({ name: 'hang', handler: () => new Promise(() => {}) });
      const served = serveTarget(server);
      const { client } = await connectClient(served.target, { era });
      const pending = client.callTool('hang');
      await client.ping();
      await client.close();
      const error = await rejectionOf(pending);
      expect((error as LocalError).code).toBe(LocalErrorCode.ConnectionClosed);
    });
  });
});
