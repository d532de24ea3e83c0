/** Contract tests about starting, closing, and bad input. */
import {
  createNotification,
  type JsonRpcMessage,
  LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { expect } from 'vitest';
import type { ContractTestBody } from './delivery-tests';
import type { ContractHarness } from './harness';
import { CONTRACT_METHODS } from './responder';
import { settle } from './waiting';

type Outcome = { settled: 'resolved' } | { settled: 'rejected'; error: unknown };

function outcomeOf(promise: Promise<unknown>): Promise<Outcome> {
  return promise.then(
    () => ({ settled: 'resolved' }),
    (error: unknown) => ({ settled: 'rejected', error }),
  );
}

async function expectLocalError(
  h: ContractHarness,
  promise: Promise<unknown>,
  code: LocalErrorCode,
  what: string,
): Promise<void> {
  const outcome = await h.waitFor(outcomeOf(promise), what);
  expect(outcome.settled, `${what} rejects`).toBe('rejected');
  const error = outcome.settled === 'rejected' ? outcome.error : undefined;
  expect(error, `${what} rejects with a LocalError`).toBeInstanceOf(LocalError);
  expect((error as LocalError).code, `the code of ${what}'s error`).toBe(code);
}

const note = (seq: number) => createNotification(CONTRACT_METHODS.note, { seq });

/** Calls `send` and fails if it throws synchronously instead of returning a promise. */
function sendWithoutThrowing(h: ContractHarness, message: unknown, what: string): Promise<void> {
  let sent: Promise<void> | undefined;
  expect(() => {
    sent = h.client.send(message as JsonRpcMessage);
  }, `send() of ${what} does not throw synchronously`).not.toThrow();
  return sent ?? Promise.resolve();
}

/** The start() rules; this test starts the pair itself. */
export async function startRules(h: ContractHarness): Promise<void> {
  await expectLocalError(
    h,
    h.client.send(note(0)),
    LocalErrorCode.NotConnected,
    'send() before start()',
  );
  await h.start();
  const second = await h.waitFor(outcomeOf(h.client.start()), 'a second start()');
  expect(second.settled, 'a second start() rejects').toBe('rejected');
  await h.roundTrip(CONTRACT_METHODS.echo);
}

export const lifecycleTests = {
  'closes from the client side': async (h) => {
    await h.roundTrip(CONTRACT_METHODS.echo);
    const closed = h.client.close().then(() => h.clientCloseCount);
    expect(await h.waitFor(closed, 'client close()'), 'onclose ran before close() resolved').toBe(
      1,
    );
    await expectLocalError(
      h,
      h.client.send(note(1)),
      LocalErrorCode.ConnectionClosed,
      'send() after close()',
    );
    await settle();
  },

  'propagates a client close to the server': async (h) => {
    const { server, responder } = h.localServer();
    await h.roundTrip(CONTRACT_METHODS.echo);
    await h.waitFor(h.client.close(), 'client close()');
    await h.waitFor(responder.closed, 'the server onclose after the client closed');
    const afterClose = server.send(createNotification(CONTRACT_METHODS.progress, { seq: 0 }));
    await expectLocalError(
      h,
      afterClose,
      LocalErrorCode.ConnectionClosed,
      'server send() after close',
    );
  },

  'closes from the server side': async (h) => {
    await h.roundTrip(CONTRACT_METHODS.echo);
    expect(await h.roundTrip(CONTRACT_METHODS.close)).toEqual({});
    await h.waitFor(h.clientClosed, 'the client onclose after the server closed');
    await expectLocalError(
      h,
      h.client.send(note(1)),
      LocalErrorCode.ConnectionClosed,
      'send() after the server closed',
    );
    if (h.responder) await h.waitFor(h.responder.closed, 'the server onclose');
    await settle();
  },

  'makes close() idempotent': async (h) => {
    await h.roundTrip(CONTRACT_METHODS.echo);
    const counts = await h.waitFor(
      Promise.all(
        [h.client.close(), h.client.close()].map((p) => p.then(() => h.clientCloseCount)),
      ),
      'two concurrent close() calls',
    );
    expect(counts, 'each close() resolved after onclose ran, once').toEqual([1, 1]);
    await h.waitFor(h.client.close(), 'a third close()');
    expect(h.clientCloseCount).toBe(1);
    if (h.responder) {
      const { server, responder } = h.localServer();
      await h.waitFor(Promise.all([server.close(), server.close()]), 'two server close() calls');
      await h.waitFor(server.close(), 'a third server close()');
      expect(responder.closeCount).toBe(1);
    }
  },

  'reports unserialisable values without breaking the connection': async (h) => {
    const cyclic: Record<string, unknown> = { seq: 2 };
    cyclic.self = cyclic;
    const bad = {
      'a BigInt': { jsonrpc: '2.0', method: CONTRACT_METHODS.note, params: { seq: 1, n: 1n } },
      'a cycle': { jsonrpc: '2.0', method: CONTRACT_METHODS.note, params: cyclic },
    };
    let resolved = 0;
    for (const [what, message] of Object.entries(bad)) {
      const sent = sendWithoutThrowing(h, message, what);
      const outcome = await h.waitFor(outcomeOf(sent), `send() of ${what}`);
      if (outcome.settled === 'resolved') resolved++;
    }
    await h.waitFor(h.notify(CONTRACT_METHODS.note, { seq: 3 }), 'send() of a valid note');
    await h.roundTrip(CONTRACT_METHODS.echo);
    expect(
      h.clientErrors.length,
      'each send that did not reject was reported on onerror',
    ).toBeGreaterThanOrEqual(resolved);
    expect((await h.report()).seqs, 'only the valid note reached the server').toEqual([3]);
  },

  'reports invalid envelopes without delivering them': async (h) => {
    // A server core may answer the rejected input itself with an error response.
    h.allowAnonymousErrors = true;
    const id = 'not-an-envelope';
    const call = h.sendTracked({ jsonrpc: '2.0', id } as unknown as JsonRpcMessage, id);
    let answeredWithError = false;
    call.response.then(
      (response) => {
        answeredWithError = 'error' in response;
      },
      () => {},
    );
    const outcome = await h.waitFor(outcomeOf(call.sent), 'send() of an invalid envelope');
    await h.roundTrip(CONTRACT_METHODS.echo);
    const report = await h.report();
    expect(report.unexpected, 'the server delivered the invalid envelope').toBe(0);
    const reported =
      outcome.settled === 'rejected' ||
      h.clientErrors.length > 0 ||
      report.errors > 0 ||
      h.anonymousErrors.length > 0 ||
      answeredWithError;
    expect(
      reported,
      'the invalid envelope was reported (rejected send, onerror, or an error response)',
    ).toBe(true);
  },

  'delivers nothing after close': async (h) => {
    const call = h.call(CONTRACT_METHODS.stream, { count: 10_000 });
    let closing: Promise<void> | undefined;
    // Close from inside onmessage, while the server is still streaming.
    h.onInbound(() => {
      closing ??= h.client.close();
    });
    await h.waitFor(h.clientClosed, 'the client onclose after the first streamed message');
    await h.waitFor(closing ?? Promise.resolve(), 'client close()');
    await h.waitFor(outcomeOf(call.response), 'the stream request to settle');
    await settle();
    expect(h.inbound.length, 'messages delivered before the close').toBeGreaterThan(0);
  },
} satisfies Record<string, ContractTestBody>;
