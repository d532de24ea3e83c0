/**
 * A long-running task across the bridge, both directions: a twofold server with task tools
 * upstream (over HTTP for the stdio bridge, over a stream for the HTTP bridge), twofold's
 * `McpClient` downstream. The downstream task follows the upstream one (status messages, its
 * result), a downstream cancel reaches the upstream handler, the input an upstream task asks
 * for is answered downstream, and a client without tasks still gets a required tool's result.
 */
import { PassThrough } from 'node:stream';
import { McpClient, type ServerTarget } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { InputRequired, McpServer, serveTransport } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { StdioServerTransport, serve } from '@twofold/transports/node';
import { describe, expect, it } from 'vitest';
import { gate } from '../../../../config/test-support/processes.ts';
import { startHttpBridge, startStdioBridge } from '../../src/bridge/index';
import { BRIDGE_TIMEOUT, closeAfterTest, textOf, useBridgeEnv } from './support/bridge-env';

useBridgeEnv();

/** The upstream: a build that reports its steps, a loop cancelled only by its task, a question. */
function taskServer() {
  const release = gate();
  const cancelled = gate();
  const server = new McpServer({ name: 'builder', version: '1.0.0', tasks: { pollIntervalMs: 5 } });
  server.registerTool({
    name: 'build',
    taskSupport: 'optional',
    handler: async (_args, { task }) => {
      await task?.reportStatus('compiling');
      await release.wait;
      return 'built';
    },
  });
  server.registerTool({
    name: 'endless',
    taskSupport: 'optional',
    handler: (_args, { signal }) =>
      new Promise<string>((resolve) => {
        signal.addEventListener('abort', () => {
          cancelled.open();
          resolve('stopped');
        });
      }),
  });
  server.registerTool({
    name: 'deploy',
    taskSupport: 'required',
    handler: (_args, { inputResponse }) => {
      const answer = inputResponse('sure');
      if (answer === undefined) {
        return new InputRequired({
          sure: {
            method: 'elicitation/create',
            params: {
              message: 'Deploy to production?',
              requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } },
            },
          },
        });
      }
      return 'action' in answer && answer.action === 'accept' ? 'deployed' : 'kept';
    },
  });
  return { server, release, cancelled };
}

/** `server` over HTTP, exposed on streams by the stdio bridge; the host's target. */
async function throughStdioBridge(server: McpServer): Promise<ServerTarget> {
  const endpoint = closeAfterTest(await serve(createServerHttpHandler(server)));
  const toBridge = new PassThrough();
  const fromBridge = new PassThrough();
  closeAfterTest(
    await startStdioBridge({
      upstream: httpServer({ url: endpoint.url }),
      input: toBridge,
      output: fromBridge,
    }),
  );
  return {
    kind: 'stream',
    key: 'stdio-bridge',
    open: () => new StdioServerTransport({ input: fromBridge, output: toBridge }),
  };
}

/** `server` on a stream, published over HTTP by the HTTP bridge; the client's target. */
async function throughHttpBridge(server: McpServer): Promise<ServerTarget> {
  const upstream: ServerTarget = {
    kind: 'stream',
    key: 'memory:builder',
    open: () => {
      const [clientEnd, serverEnd] = createInMemoryPair();
      void serveTransport(server, serverEnd).then((served) => closeAfterTest(served));
      return clientEnd;
    },
  };
  const bridge = closeAfterTest(
    await startHttpBridge({ upstream, listen: { host: '127.0.0.1', port: 0 } }),
  );
  return httpServer({ url: bridge.url });
}

const DIRECTIONS = [
  { name: 'HTTP server → stdio bridge → host', through: throughStdioBridge },
  { name: 'stream server → HTTP bridge → HTTP client', through: throughHttpBridge },
];

function connect(target: ServerTarget, options: { tasks?: boolean } = {}) {
  return McpClient.connect(target, {
    clientInfo: { name: 'downstream', version: '1.0.0' },
    era: 'modern',
    handlers: { elicitation: async () => ({ action: 'accept', content: { yes: true } }) },
    ...options,
  }).then(closeAfterTest);
}

describe.each(DIRECTIONS)('tasks across the bridge: $name', ({ through }) => {
  it('a downstream task follows the upstream one to its result', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const { server, release } = taskServer();
    const client = await connect(await through(server));
    expect(client.serverCapabilities.extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
    const { task } = await client.startToolTask('build');
    if (!task) throw new Error('the bridge answered without a task');
    const messages: string[] = [];
    for await (const state of task.updates()) {
      if (state.statusMessage) messages.push(state.statusMessage);
      if (state.statusMessage === 'compiling') release.open();
    }
    expect(messages).toContain('compiling');
    expect(textOf(await task.result())).toBe('built');
  });

  it('a downstream cancel cancels the upstream task', { timeout: BRIDGE_TIMEOUT }, async () => {
    const { server, cancelled } = taskServer();
    const client = await connect(await through(server));
    const { task } = await client.startToolTask('endless');
    await task?.cancel();
    await cancelled.wait;
    expect(await task?.result().catch((error: unknown) => error)).toMatchObject({
      code: 'REQUEST_ABORTED',
    });
  });

  it('input the upstream task asks for is answered downstream', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const { server } = taskServer();
    const client = await connect(await through(server), { tasks: true });
    expect(textOf(await client.callTool('deploy'))).toBe('deployed');
  });

  it('a required task tool answers a client that declares no tasks', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const { server } = taskServer();
    const client = await connect(await through(server));
    expect(textOf(await client.callTool('deploy'))).toBe('deployed');
  });
});
