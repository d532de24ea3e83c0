/**
 * The tasks extension is not defined for legacy revisions: a legacy session is not told about
 * it, runs optional-task tools directly and refuses required-task ones with -32021.
 */
import { LATEST_LEGACY_VERSION, TASKS_EXTENSION_ID } from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import { startLegacySession } from '../../src/legacy/start-session';
import { McpServer } from '../../src/server';
import { TestPeer } from '../support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from '../support/responses';

useCleanups();

describe('tasks extension on a legacy session', () => {
  it('is not advertised, runs optional tools at once and refuses required ones', async () => {
    const server = new McpServer({ name: 'tasks-legacy', version: '1.0.0' });
    server.registerTool({ name: 'build', taskSupport: 'optional', handler: () => 'built' });
    server.registerTool({ name: 'deploy', taskSupport: 'required', handler: () => 'deployed' });
    const [clientEnd, serverEnd] = createInMemoryPair();
    await startLegacySession(server, serverEnd);
    const peer = new TestPeer(clientEnd);
    await peer.start();
    cleanups.push(() => peer.close());

    const init = resultOf(
      await peer.request('initialize', {
        protocolVersion: LATEST_LEGACY_VERSION,
        capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
        clientInfo: { name: 'legacy', version: '1.0.0' },
      }),
    );
    await peer.notify('notifications/initialized');
    expect(init.capabilities).toMatchObject({ tools: {} });
    expect(init.capabilities).not.toHaveProperty('extensions');

    const built = resultOf(await peer.request('tools/call', { name: 'build' }));
    expect(built).toEqual({ content: [{ type: 'text', text: 'built' }] });
    expect(errorOf(await peer.request('tools/call', { name: 'deploy' }))).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
    });
  });
});
