/**
 * One contract test's view of a pair: it drives the client, correlates responses by id, and
 * records every client callback so the invariants (one `onclose`, nothing after it, one
 * response per request) are checked after each test.
 */
import {
  createNotification,
  createRequest,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type RequestId,
  type Transport,
} from '@twofold/protocol/experimental';
import { assert } from 'vitest';
import { countIoHandles, leakedIoHandles } from './io-handles';
import {
  CONTRACT_METHODS,
  type ContractReport,
  type ContractResponder,
  createContractResponder,
} from './responder';
import type { ContractPair } from './types';
import { withTimeout } from './waiting';

/** A request in flight: `sent` settles with `send()`, `response` when its answer arrives. */
export interface Call {
  id: RequestId;
  sent: Promise<void>;
  response: Promise<JsonRpcResponse>;
}

interface Waiter {
  resolve: (response: JsonRpcResponse) => void;
  reject: (error: Error) => void;
}

const ignore = () => {};

// Ids of the two JSON-RPC kinds may coexist ("1" and 1 are different ids).
const idKey = (id: unknown) => `${typeof id}:${String(id)}`;

/** Drives one pair through one contract test. */
export class ContractHarness {
  /** Every message the client delivered, in order. */
  readonly inbound: JsonRpcMessage[] = [];
  /** Errors the client reported on `onerror`. */
  readonly clientErrors: Error[] = [];
  /** Resolves when the client's `onclose` has run. */
  readonly clientClosed: Promise<void>;
  /** Error responses without an id (a server core may send them for input it rejects). */
  readonly anonymousErrors: JsonRpcResponse[] = [];
  /** Set by a test that provokes such error responses on purpose. */
  allowAnonymousErrors = false;
  clientCloseCount = 0;

  // Violation -> how often it happened (a flood of late callbacks is one line).
  readonly #violations = new Map<string, number>();
  readonly #waiting = new Map<string, Waiter>();
  readonly #listeners = new Set<(message: JsonRpcMessage) => void>();
  #counter = 0;

  #leakedHandles: string[] = [];

  private constructor(
    readonly pair: ContractPair,
    readonly responder: ContractResponder | undefined,
    readonly timeoutMs: number,
    private readonly handlesBefore: ReadonlyMap<string, number>,
  ) {
    let markClosed: () => void = ignore;
    this.clientClosed = new Promise((resolve) => {
      markClosed = resolve;
    });
    const { client } = pair;
    client.onmessage = (message) => {
      if (this.#afterClose('onmessage')) return;
      this.inbound.push(message);
      this.#route(message);
      for (const listener of this.#listeners) listener(message);
    };
    client.onerror = (error) => {
      if (this.#afterClose(`onerror (${error.message})`)) return;
      this.clientErrors.push(error);
    };
    client.onclose = () => {
      this.#afterClose('onclose');
      this.clientCloseCount++;
      for (const waiter of this.#waiting.values()) {
        waiter.reject(new Error('the client closed before the response arrived'));
      }
      this.#waiting.clear();
      markClosed();
    };
  }

  /** Creates a pair and installs the responder and the client's handlers; starts nothing. */
  static async open(
    createPair: () => ContractPair | Promise<ContractPair>,
    timeoutMs: number,
  ): Promise<ContractHarness> {
    const handlesBefore = countIoHandles();
    const pair = await createPair();
    if (pair.server === undefined && !('remoteResponder' in pair && pair.remoteResponder)) {
      throw new Error(
        'createPair returned no server: set remoteResponder: true when the server side runs ' +
          'createContractResponder in another process',
      );
    }
    const responder = pair.server ? createContractResponder(pair.server) : undefined;
    return new ContractHarness(pair, responder, timeoutMs, handlesBefore);
  }

  get client(): Transport {
    return this.pair.client;
  }

  /** The server transport and its responder; throws when the server runs in another process. */
  localServer(): { server: Transport; responder: ContractResponder } {
    const { server } = this.pair;
    if (server === undefined || this.responder === undefined) {
      throw new Error(
        'This test observes the server transport in this process, but the pair has a remote ' +
          'server: list the test in `skip` with a reason',
      );
    }
    return { server, responder: this.responder };
  }

  /**
   * Starts the server, then the client, without waiting in between: a server end may only come
   * into being once the client has connected (e.g. a socket accepted from a spawned relay).
   */
  async start(): Promise<void> {
    const server = this.pair.server?.start() ?? Promise.resolve();
    const client = this.client.start();
    await this.waitFor(Promise.all([server, client]), 'start() of both sides');
  }

  /** The next request id, alternating numbers and strings. */
  nextId(): RequestId {
    const n = this.#counter++;
    return n % 2 === 0 ? n : `id-${n}`;
  }

  /** Sends a request now (without waiting) and tracks its response. */
  call(method: string, params: Record<string, unknown>, id: RequestId = this.nextId()): Call {
    return this.sendTracked(createRequest(id, method, params), id);
  }

  /** Sends any message now (without waiting) and tracks a response with id `id`. */
  sendTracked(message: JsonRpcMessage, id: RequestId): Call {
    const key = idKey(id);
    if (this.#waiting.has(key)) throw new Error(`request id ${key} is already in flight`);
    const response = new Promise<JsonRpcResponse>((resolve, reject) => {
      this.#waiting.set(key, { resolve, reject });
    });
    const sent = this.client.send(message);
    sent.catch((error: unknown) => {
      this.#waiting.get(key)?.reject(error instanceof Error ? error : new Error(String(error)));
      this.#waiting.delete(key);
    });
    // Callers await what matters to them; the rest must not surface as unhandled rejections.
    response.catch(ignore);
    return { id, sent, response };
  }

  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.client.send(createNotification(method, params));
  }

  /**
   * Sends a request and returns its result, failing on an error response or a timeout; each
   * of the two waits gets `bounds` single-wait bounds (more for a message of many MiB).
   */
  async roundTrip(
    method: string,
    params: Record<string, unknown> = {},
    bounds = 1,
  ): Promise<Record<string, unknown>> {
    const call = this.call(method, params);
    await this.waitFor(call.sent, `send() of ${method}`, bounds);
    return this.resultOf(call, method, bounds);
  }

  /** The result of a call, failing on an error response or a timeout. */
  async resultOf(call: Call, what: string, bounds = 1): Promise<Record<string, unknown>> {
    const response = await this.waitFor(call.response, `the response to ${what}`, bounds);
    if (!('result' in response)) {
      throw new Error(`${what} was answered with an error: ${JSON.stringify(response.error)}`);
    }
    return response.result;
  }

  /** What the responder has observed, asked over the transport. */
  async report(): Promise<ContractReport> {
    return (await this.roundTrip(CONTRACT_METHODS.report)) as unknown as ContractReport;
  }

  /** Calls `listener` for every message the client delivers from now on. */
  onInbound(listener: (message: JsonRpcMessage) => void): void {
    this.#listeners.add(listener);
  }

  /** Waits for `promise`, failing with a message naming `what` after `bounds` × `timeoutMs`. */
  waitFor<T>(promise: Promise<T>, what: string, bounds = 1): Promise<T> {
    return withTimeout(promise, this.timeoutMs * bounds, what);
  }

  /**
   * Closes both sides and disposes of the pair; every step runs even when one fails. Then
   * notes the processes, pipes and sockets the pair left open.
   */
  async teardown(): Promise<void> {
    const { client, server, dispose } = this.pair;
    const steps: Array<[string, () => Promise<void>]> = [
      ['client close()', () => client.close()],
      ['server close()', () => server?.close() ?? Promise.resolve()],
      ['dispose()', () => dispose?.() ?? Promise.resolve()],
    ];
    let failure: unknown;
    for (const [what, step] of steps) {
      try {
        await this.waitFor(Promise.resolve().then(step), what);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
    this.#leakedHandles = await leakedIoHandles(this.handlesBefore);
  }

  /** Checks what must hold after every test (after teardown). */
  assertInvariants(): void {
    const violations = this.violations();
    if (violations.length > 0) {
      assert.fail(`the transport broke the contract:\n- ${violations.join('\n- ')}`);
    }
  }

  /** What broke the invariants that hold after every test (call after teardown). */
  violations(): string[] {
    const violations = [...this.#violations].map(([text, times]) =>
      times === 1 ? text : `${text} (${times} times)`,
    );
    if (this.#leakedHandles.length > 0) {
      violations.push(`left open after close and dispose: ${this.#leakedHandles.join(', ')}`);
    }
    if (this.clientCloseCount !== 1) {
      violations.push(`client onclose ran ${this.clientCloseCount} times (expected once)`);
    }
    if (this.anonymousErrors.length > 0 && !this.allowAnonymousErrors) {
      violations.push(`${this.anonymousErrors.length} error responses without an id arrived`);
    }
    if (this.responder) {
      const { closeCount, callbacksAfterClose } = this.responder;
      if (closeCount !== 1)
        violations.push(`server onclose ran ${closeCount} times (expected once)`);
      if (callbacksAfterClose > 0) {
        violations.push(`server ran ${callbacksAfterClose} callbacks after onclose`);
      }
      const { unexpected } = this.responder.report();
      if (unexpected > 0) violations.push(`server delivered ${unexpected} unexpected messages`);
    }
    return violations;
  }

  #afterClose(callback: string): boolean {
    if (this.clientCloseCount === 0) return false;
    this.#violation(`client ${callback} ran after onclose`);
    return true;
  }

  #violation(text: string): void {
    this.#violations.set(text, (this.#violations.get(text) ?? 0) + 1);
  }

  #route(message: JsonRpcMessage): void {
    if (!isJsonRpcResponse(message)) {
      if (isJsonRpcRequest(message))
        this.#violation(`the server sent a request (${message.method})`);
      return;
    }
    if (message.id === undefined || message.id === null) {
      this.anonymousErrors.push(message);
      return;
    }
    const key = idKey(message.id);
    const waiter = this.#waiting.get(key);
    if (waiter === undefined) {
      this.#violation(`a response for id ${key}, which is unknown or already answered`);
      return;
    }
    this.#waiting.delete(key);
    waiter.resolve(message);
  }
}
