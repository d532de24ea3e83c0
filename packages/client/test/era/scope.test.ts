/** The connect scope hands the kept connection over without its connect-phase wrapper. */
import { describe, expect, it } from 'vitest';
import { ConnectPhaseTransport } from '../../src/era/phase-transport';
import { ConnectScope } from '../../src/era/scope';
import type { EraSession, SessionHooks } from '../../src/session/types';
import { flush } from '../support/rpc-peer';
import { ManualTransport } from '../support/rpc-transports';

const warnings: string[] = [];
const hooks = {
  clientInfo: { name: 'scope-test', version: '1.0.0' },
  capabilities: {},
  requestTimeoutMs: 5000,
  answerInput: async () => ({}),
  onNotification: () => undefined,
  onWarning: (warning) => warnings.push(warning.message),
  onClose: () => undefined,
} satisfies SessionHooks;

describe('ConnectScope', () => {
  it('wraps a connection during the attempt and unwraps the one it keeps', async () => {
    const raw = new ManualTransport();
    const target = { kind: 'stream', key: 'test:scope', open: () => raw } as const;
    const scope = new ConnectScope(target, 5000, hooks);
    const connection = scope.open(raw, { notify: false, abortExchange: false });
    expect(connection.transport).toBeInstanceOf(ConnectPhaseTransport);

    // During the attempt an error with a null id answers the only request in flight.
    const probe = connection.requestRaw('server/discover');
    await flush();
    raw.onmessage?.({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no session' } });
    await expect(probe).resolves.toMatchObject({ type: 'error', error: { code: -32600 } });

    const session = { close: async () => undefined } as unknown as EraSession;
    await scope.run(async () => ({ session, connection }));
    expect(connection.transport).toBe(raw);

    // Afterwards messages go straight to the connection: no id is adopted any more.
    const later = connection.requestRaw('tools/list');
    await flush();
    raw.onmessage?.({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'stray' } });
    expect(warnings.at(-1)).toMatch(/without a request id/);
    raw.onmessage?.({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    await expect(later).resolves.toMatchObject({ type: 'result', result: { tools: [] } });
    await connection.close();
  });
});
