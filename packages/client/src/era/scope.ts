/**
 * The bounds of one connect attempt: a deadline over every phase, and the connections it opened.
 * Whatever is not kept is closed before the attempt settles, so a failed or abandoned probe
 * leaves no child process or socket behind.
 */
import {
  LocalError,
  LocalErrorCode,
  ProtocolError,
  type Transport,
} from '@twofold/protocol/experimental';
import { RpcConnection } from '../rpc/connection';
import type { CancelPolicy } from '../rpc/types';
import type { EraSession, SessionHooks } from '../session/types';
import type { ServerTarget } from '../types';
import { messageOf } from '../util';
import { ConnectPhaseTransport } from './phase-transport';

/** A session and the connection it runs on: what a connect strategy produces. */
export interface Established {
  session: EraSession;
  connection: RpcConnection;
}

/** What the connect attempt is doing, for the timeout error. */
export type ConnectPhase = 'start' | 'probe' | 'initialize' | 'discover';

/**
 * One connect attempt's deadline and resources.
 */
export class ConnectScope {
  /** Aborted when the attempt times out or fails; connect-phase requests carry it. */
  readonly signal: AbortSignal;
  /** What the attempt is doing now. */
  phase: ConnectPhase = 'start';
  readonly #controller = new AbortController();
  readonly #live = new Map<RpcConnection, ConnectPhaseTransport>();
  readonly #closing: Promise<void>[] = [];
  readonly #serverKey: string;
  readonly #serverName: string;
  readonly #timeoutMs: number;
  readonly #hooks: SessionHooks;
  readonly #started = Date.now();
  #done = false;
  #timedOut = false;

  constructor(target: ServerTarget, timeoutMs: number, hooks: SessionHooks) {
    this.signal = this.#controller.signal;
    this.#serverKey = target.key;
    this.#serverName = serverName(target);
    this.#timeoutMs = timeoutMs;
    this.#hooks = hooks;
  }

  /** Milliseconds left before the deadline (0 = no deadline, as request timeouts read it). */
  remainingMs(): number {
    if (!this.#bounded()) return 0;
    return Math.max(1, this.#timeoutMs - (Date.now() - this.#started));
  }

  /**
   * Wraps `transport` in a connection owned by this attempt (closed unless it is the one
   * kept). The connection is not started.
   */
  open(transport: Transport, cancel: CancelPolicy): RpcConnection {
    const phase = new ConnectPhaseTransport(transport);
    const connection = new RpcConnection(phase, {
      requestTimeoutMs: this.#hooks.requestTimeoutMs,
      maxTotalTimeoutMs: this.#hooks.maxTotalTimeoutMs,
      cancel,
      // The session replaces these; until then a peer's stray output is only worth a warning.
      onError: (error) =>
        this.#hooks.onWarning({
          code: 'unexpected-message',
          message: error.message,
          ...(error instanceof LocalError && error.details ? { details: error.details } : {}),
        }),
    });
    this.#live.set(connection, phase);
    if (this.#done) {
      this.abandon(connection);
      throw this.#abortedError();
    }
    return connection;
  }

  /** Starts a connection opened here; a failure to start ends the attempt. */
  async start(connection: RpcConnection): Promise<RpcConnection> {
    this.phase = 'start';
    await connection.start();
    if (this.#done) throw this.#abortedError();
    return connection;
  }

  /** Closes a connection the attempt no longer needs (the close is awaited before settling). */
  abandon(connection: RpcConnection): void {
    this.#live.delete(connection);
    this.#closing.push(connection.close().catch(() => undefined));
  }

  /**
   * Runs `work` under the deadline. Resolves with the session it established after closing
   * everything else; rejects (after closing everything) with the work's error, or with
   * `REQUEST_TIMEOUT` naming the phase when the deadline passed.
   */
  async run(work: () => Promise<Established>): Promise<EraSession> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      if (!this.#bounded()) return;
      timer = setTimeout(() => {
        this.#timedOut = true;
        const error = this.#timeoutError();
        this.#controller.abort(error);
        reject(error);
      }, this.#timeoutMs);
    });
    const task = work();
    try {
      const established = await Promise.race([task, expired]);
      this.#done = true;
      clearTimeout(timer);
      const phase = this.#live.get(established.connection);
      // The session owns the connection from now on: the connect-phase wrapper leaves the chain.
      if (phase !== undefined) established.connection.unwrapTransport(phase.inner);
      this.#live.delete(established.connection);
      await this.#closeAll();
      return established.session;
    } catch (error) {
      this.#done = true;
      clearTimeout(timer);
      if (!this.signal.aborted) this.#controller.abort(this.#abortedError());
      // Work that finishes after the deadline must not leave a live session behind.
      task.then(
        (late) => late.session.close(),
        () => undefined,
      );
      await this.#closeAll();
      throw this.#timedOut
        ? this.#timeoutError(error)
        : typed(error, this.#serverKey, this.#serverName);
    }
  }

  #bounded(): boolean {
    return this.#timeoutMs > 0 && Number.isFinite(this.#timeoutMs);
  }

  async #closeAll(): Promise<void> {
    for (const connection of [...this.#live.keys()]) this.abandon(connection);
    await Promise.all(this.#closing.splice(0));
  }

  #timeoutError(cause?: unknown): LocalError {
    return new LocalError(
      LocalErrorCode.RequestTimeout,
      `Connecting to ${this.#serverName} timed out after ${this.#timeoutMs} ms (phase: ${this.phase})`,
      {
        cause,
        details: { phase: this.phase, timeoutMs: this.#timeoutMs, serverKey: this.#serverKey },
      },
    );
  }

  #abortedError(): LocalError {
    return new LocalError(LocalErrorCode.RequestAborted, 'The connect attempt ended');
  }
}

/** How messages name a target to people. */
export function serverName(target: ServerTarget): string {
  return target.name ?? target.key;
}

/** Every connect failure is a `LocalError` or a `ProtocolError`. */
function typed(error: unknown, serverKey: string, name: string): Error {
  if (error instanceof LocalError || error instanceof ProtocolError) return error;
  const message = messageOf(error);
  return new LocalError(
    LocalErrorCode.EraDetectionFailed,
    `Connecting to ${name} failed: ${message}`,
    { cause: error, details: { serverKey } },
  );
}
