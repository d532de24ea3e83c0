// The contract suite must be able to fail: each broken transport below (the in-memory pair
// with one fault added) fails the contract test that covers that fault, and the skip option
// rejects what would silently weaken the suite.

import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import type {
  JsonRpcMessage,
  Transport,
  TransportSendOptions,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { createInMemoryPair } from '../src/memory/in-memory-pair';
import {
  createContractResponder,
  runTransportContract,
  TRANSPORT_CONTRACT_TESTS,
} from '../src/testing';
import { planTransportContract, runContractTest } from '../src/testing/run-contract';
import type { ContractPair, TransportContractTest } from '../src/testing/types';

/** Forwards to an inner transport; subclasses add one fault. */
class Relay implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  constructor(protected readonly inner: Transport) {
    inner.onmessage = (message) => this.deliver(message);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.closed();
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  protected deliver(message: JsonRpcMessage): void {
    this.onmessage?.(message);
  }
  protected closed(): void {
    this.onclose?.();
  }
}

/** Swaps each two consecutive inbound messages. */
class Reordering extends Relay {
  #held: JsonRpcMessage | undefined;
  protected override deliver(message: JsonRpcMessage): void {
    if (this.#held === undefined) {
      this.#held = message;
      // A lone message is let through on the next turn, so nothing waits forever.
      setTimeout(() => this.#release(), 0);
      return;
    }
    const held = this.#held;
    this.#held = undefined;
    super.deliver(message);
    super.deliver(held);
  }
  #release(): void {
    const held = this.#held;
    this.#held = undefined;
    if (held) super.deliver(held);
  }
}

/** Delivers each inbound message a turn later, without checking whether it closed meanwhile. */
class LateDelivery extends Relay {
  protected override deliver(message: JsonRpcMessage): void {
    setTimeout(() => super.deliver(message), 0);
  }
}

/** Runs onclose twice. */
class DoubleClose extends Relay {
  protected override closed(): void {
    super.closed();
    super.closed();
  }
}

/** Drops sends after close instead of rejecting them. */
class SilentAfterClose extends Relay {
  #closed = false;
  protected override closed(): void {
    this.#closed = true;
    super.closed();
  }
  override send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    return this.#closed ? Promise.resolve() : super.send(message, options);
  }
}

/** Serialises inside send() before returning a promise, so bad values throw synchronously. */
class ThrowsSynchronously extends Relay {
  override send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    return super.send(JSON.parse(JSON.stringify(message)), options);
  }
}

/** Decodes each 5-byte chunk of UTF-8 on its own: the classic split-character bug. */
class ChunkedUtf8 extends Relay {
  override send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(message));
    let text = '';
    for (let at = 0; at < bytes.length; at += 5)
      text += new TextDecoder().decode(bytes.subarray(at, at + 5));
    return super.send(JSON.parse(text), options);
  }
}

/** Turns every inbound response id into a string (correlating "7" and 7 as one id). */
class StringIds extends Relay {
  protected override deliver(message: JsonRpcMessage): void {
    super.deliver(
      'id' in message && typeof message.id === 'number'
        ? ({ ...message, id: String(message.id) } as JsonRpcMessage)
        : message,
    );
  }
}

/** Resolves a notification's send() at once but hands it over a turn later, after the response. */
class LateNotifications extends Relay {
  override async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (!('method' in message)) return super.send(message, options);
    setTimeout(() => super.send(message, options).catch(() => {}), 0);
  }
}

/** Closes only its own side: the peer never hears of it. */
class CloseStaysLocal extends Relay {
  #closed = false;
  override async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

/** Silently drops messages over 4 MiB. */
class DropsLarge extends Relay {
  override async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (JSON.stringify(message).length > 4 * 1024 * 1024) return;
    return super.send(message, options);
  }
}

type Wrap = (transport: Transport) => Transport;

function pairWith(faults: { client?: Wrap; server?: Wrap }): () => ContractPair {
  return () => {
    const [client, server] = createInMemoryPair();
    return {
      client: faults.client?.(client) ?? client,
      server: faults.server?.(server) ?? server,
    };
  };
}

const faults: Array<[TransportContractTest, string, { client?: Wrap; server?: Wrap }, RegExp]> = [
  [
    'delivers messages in send order',
    'reorders messages',
    { server: (t) => new Reordering(t) },
    /order in which the server received/,
  ],
  [
    'delivers pipelined sends in order',
    'reorders messages',
    { server: (t) => new Reordering(t) },
    /order in which the server received/,
  ],
  [
    'delivers nothing after close',
    'delivers after close',
    { client: (t) => new LateDelivery(t) },
    /onmessage ran after onclose/,
  ],
  [
    'closes from the client side',
    'runs onclose twice',
    { client: (t) => new DoubleClose(t) },
    /onclose ran before close\(\) resolved: expected 2 to be 1/,
  ],
  [
    'makes close() idempotent',
    'runs onclose twice',
    { client: (t) => new DoubleClose(t) },
    /each close\(\) resolved after onclose ran/,
  ],
  [
    'closes from the client side',
    'drops sends after close',
    { client: (t) => new SilentAfterClose(t) },
    /send\(\) after close\(\) rejects/,
  ],
  [
    'reports unserialisable values without breaking the connection',
    'throws synchronously',
    { client: (t) => new ThrowsSynchronously(t) },
    /does not throw synchronously/,
  ],
  [
    'round-trips UTF-8 text exactly',
    'splits characters across chunks',
    { client: (t) => new ChunkedUtf8(t) },
    /sample: texts differ/,
  ],
  [
    'answers concurrent requests with string and numeric ids',
    'conflates "7" and 7',
    { client: (t) => new StringIds(t) },
    /a response for id string:0, which is unknown or already answered/,
  ],
  [
    'delivers request-related notifications before the response',
    'sends notifications late',
    { server: (t) => new LateNotifications(t) },
    /related notifications, then the response/,
  ],
  [
    'propagates a client close to the server',
    'keeps a close local',
    { client: (t) => new CloseStaysLocal(t) },
    /timed out after 300 ms waiting for the server onclose/,
  ],
  [
    'round-trips large messages',
    'drops large messages',
    { client: (t) => new DropsLarge(t) },
    // The 8 MiB echo is dropped; its wait has one bound per MiB.
    /timed out after 2400 ms waiting for the response to contract\/echo/,
  ],
];

describe('the contract catches broken transports', () => {
  it.each(faults)('%s fails for a transport that %s', async (test, _fault, wrap, message) => {
    await expect(runContractTest(test, pairWith({}), 300)).resolves.toBeUndefined();
    await expect(runContractTest(test, pairWith(wrap), 300)).rejects.toThrow(message);
  });

  it('fails a pair that leaves a socket open after close and dispose', async () => {
    let listener: Server | undefined;
    const leaky = async () => {
      listener = createServer().listen(0, '127.0.0.1');
      await once(listener, 'listening');
      return pairWith({})();
    };
    try {
      await expect(runContractTest('closes from the client side', leaky, 300)).rejects.toThrow(
        /left open after close and dispose: TCPServerWrap ×1/,
      );
    } finally {
      listener?.close();
    }
  });

  it('fails a pair without a server unless it declares a remote responder', async () => {
    const createPair = () => ({ client: createInMemoryPair()[0] }) as unknown as ContractPair;
    await expect(runContractTest('closes from the client side', createPair)).rejects.toThrow(
      /remoteResponder: true/,
    );
  });
});

describe('skip entries', () => {
  const createPair = pairWith({});
  const register = (skip: Array<{ reason: string; tests: TransportContractTest[] }>) => () =>
    runTransportContract({ name: 'never registered', createPair, skip });

  it('must carry a non-empty reason', () => {
    expect(register([{ reason: '', tests: ['delivers nothing after close'] }])).toThrow(
      /needs a reason/,
    );
    expect(register([{ reason: '  ', tests: ['delivers nothing after close'] }])).toThrow(
      /needs a reason/,
    );
  });

  it('must name known tests, and at least one', () => {
    const typo = 'delivers nothing after clsoe' as TransportContractTest;
    expect(register([{ reason: 'r', tests: [typo] }])).toThrow(
      /unknown test "delivers nothing after clsoe"/,
    );
    expect(register([{ reason: 'r', tests: [] }])).toThrow(/names no test/);
  });

  it('rejects a timeout that is not a positive number', () => {
    expect(() => runTransportContract({ name: 'x', createPair, timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });

  it('plans every test, with the reason on the skipped ones', () => {
    const plan = planTransportContract([
      { reason: 'no server-side close', tests: ['closes from the server side'] },
    ]);
    expect(plan.map((test) => test.name)).toEqual([...TRANSPORT_CONTRACT_TESTS]);
    expect(plan.filter((test) => test.skipReason)).toEqual([
      { name: 'closes from the server side', skipReason: 'no server-side close' },
    ]);
  });
});

// A server that runs the responder out of the suite's reach, as a child process would.
runTransportContract({
  name: 'in-memory pair with a remote responder',
  createPair: async () => {
    const [client, server] = createInMemoryPair();
    createContractResponder(server);
    await server.start();
    return { client, remoteResponder: true, dispose: () => server.close() };
  },
  skip: [
    {
      reason: 'the server transport is not in reach of the suite',
      tests: ['propagates a client close to the server'],
    },
  ],
});
