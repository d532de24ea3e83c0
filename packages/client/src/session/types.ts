/**
 * The contract between `McpClient` and the era it speaks: a session sends requests in its era's
 * form and reports what the server sends. Era detection (`era/`) builds one.
 */
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  TraceContext,
} from '@twofold/protocol/experimental';
import type { RpcRequestOptions } from '../rpc/types';
import type {
  ChangeStream,
  ClientWarning,
  EraVerdict,
  InputContext,
  ListenFilter,
  ListenOptions,
  RetryPolicy,
  ServerFacts,
} from '../types';

/** Options of one session request. */
export interface SessionRequestOptions extends RpcRequestOptions {
  trace?: TraceContext | undefined;
  /** Extra `_meta` entries. */
  meta?: Record<string, unknown> | undefined;
  /** Modern: extensions declared for this request only, beside the client's own. */
  extensions?: Record<string, Record<string, unknown>> | undefined;
}

/**
 * Modern era: sends a request with its `_meta` envelope, renegotiating the version once;
 * unvalidated.
 */
export type ModernSend = (
  method: string,
  params: Record<string, unknown> | undefined,
  options: SessionRequestOptions,
) => Promise<Record<string, unknown>>;

/** What every session needs from the client. */
export interface SessionHooks {
  clientInfo: Implementation;
  /** The capabilities the client declares (handlers' ones included). */
  capabilities: ClientCapabilities;
  logLevel?: LoggingLevel | undefined;
  trace?: TraceContext | undefined;
  requestTimeoutMs: number;
  /** The hard limit of requests whose progress resets their timeout (none when absent). */
  maxTotalTimeoutMs?: number | undefined;
  /**
   * Answers a server's input request (`elicitation/create`, `sampling/createMessage`,
   * `roots/list`): legacy server-to-client requests come here. Rejects when it cannot answer.
   */
  answerInput(
    method: string,
    params: Record<string, unknown> | undefined,
    context: InputContext,
  ): Promise<Record<string, unknown>>;
  /** Every notification from the server, listen streams included, for caching and callbacks. */
  onNotification(method: string, params: Record<string, unknown> | undefined): void;
  onWarning(warning: ClientWarning): void;
  /** Modern: how requests are retried after a failed exchange (`McpClientOptions.retry`). */
  retry?: RetryPolicy | false | undefined;
  /** Modern: whether a request may run twice harmlessly (retried after any exchange failure). */
  isRepeatable?(method: string, params: Record<string, unknown> | undefined): boolean;
  /** The connection ended (`error` says why when it was not `close()`). */
  onClose(error: Error | undefined): void;
}

/** One live connection in one era. */
export interface EraSession {
  readonly verdict: EraVerdict;
  readonly facts: ServerFacts;
  /** Legacy HTTP: the `MCP-Session-Id` the server assigned. */
  readonly sessionId?: string | undefined;
  /**
   * Sends one request and resolves with its result, checked against the negotiated revision's
   * schema (`INVALID_RESULT` otherwise; a missing `resultType` reads as complete). Error
   * responses reject with `ProtocolError` (`ProtocolError.fromErrorObject`). Modern: `_meta` is
   * added, and -32022 renegotiates the version and retries once. The result may be
   * `input_required` (modern); the client runs the rounds.
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: SessionRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** Modern: `subscriptions/listen`. Legacy: `resources/subscribe` and list-changed notifications. */
  listen(filter: ListenFilter, options?: ListenOptions): ChangeStream;
  /** Legacy: `ping`. Modern: `server/discover`. */
  ping(options?: SessionRequestOptions): Promise<void>;
  close(): Promise<void>;
}

/**
 * The connection's options of a session request: its own, less what only the envelope uses,
 * with the session's default timeout.
 */
export function connectionOptions(
  options: SessionRequestOptions,
  defaultTimeoutMs: number,
): RpcRequestOptions {
  const { trace: _trace, meta: _meta, extensions: _extensions, ...rpc } = options;
  return { ...rpc, timeoutMs: rpc.timeoutMs ?? defaultTimeoutMs };
}
