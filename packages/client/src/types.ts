/**
 * The public types of `McpClient`: how it reaches a server, what it learned about it, and the
 * options of its calls. Every export here is experimental.
 */
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  DiscoverResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  InputRequiredResult,
  ListRootsResult,
  LoggingLevel,
  McpHeaderParam,
  ServerCapabilities,
  TraceContext,
  Transport,
} from '@twofold/protocol/experimental';
import type { CacheStore } from './cache/store';
import type { ClientInstrumentation } from './instrumentation';

/**
 * The era a client speaks with a server. `auto` detects it (DIGEST §4.2).
 *
 * @experimental
 */
export type EraChoice = 'auto' | 'modern' | 'legacy';

/**
 * How a `ServerTarget` carries messages once the era is known.
 *
 * @experimental
 */
export type TransportKind = 'stream' | 'streamable-http' | 'http+sse';

/**
 * What era detection concluded about a server. A host may persist it and pass it back as
 * `McpClientOptions.verdict` to skip probing next time.
 *
 * @experimental
 */
export interface EraVerdict {
  era: 'modern' | 'legacy';
  /** The negotiated protocol version. */
  protocolVersion: string;
  /** How messages travel (HTTP targets may fall back to the 2024-11-05 HTTP+SSE transport). */
  transport: TransportKind;
  /** Modern: the `server/discover` result, reused instead of asking again. */
  discover?: DiscoverResult;
  /** The `ServerTarget.key` the verdict belongs to; a verdict for another key is ignored. */
  serverKey: string;
  /**
   * What the verdict rests on. `answer`: something the server said (a discover result, an
   * error, `initialize` answered after the probe was answered or refused). `silence`: the probe
   * got no answer in time and `initialize` was answered first — a server that was merely slow
   * could still be modern, so such a verdict holds for this connection only: `storeVerdict`
   * refuses it and a verdict passed back with it is ignored (the next connect probes again).
   * Absent on verdicts stored before this field existed (read as `answer`).
   */
  reachedBy?: 'answer' | 'silence';
}

/**
 * What an HTTP target needs to build a transport for one era.
 *
 * @experimental
 */
export interface HttpTransportRequest {
  /** `modern` / `legacy` Streamable HTTP, or the 2024-11-05 HTTP+SSE transport. */
  kind: 'modern' | 'legacy' | 'http+sse';
  /** Modern: the version for `MCP-Protocol-Version` when a message names none. */
  protocolVersion?: string;
  /** Modern: the `x-mcp-header` parameters of a tool, mirrored as `Mcp-Param-*` headers. */
  headerParams: (toolName: string) => readonly McpHeaderParam[] | undefined;
}

/**
 * Where a server lives. `@twofold/client/node` builds these for stdio (`stdioServer`) and HTTP
 * (`httpServer`); any other `Transport` fits as a `stream` target.
 *
 * @experimental
 */
export type ServerTarget =
  | {
      kind: 'stream';
      /** Stable identity of the server (cache partition, verdict matching). */
      key: string;
      /**
       * How error messages name the server to people: never a secret, unlike a key that may be
       * a digest or hold a command line. Default: `key`.
       */
      name?: string;
      /** A new transport to the server; a stdio target starts a fresh process on each call. */
      open(): Transport;
    }
  | {
      kind: 'http';
      key: string;
      name?: string;
      open(request: HttpTransportRequest): Transport;
    };

/**
 * Context given to an input handler.
 *
 * @experimental
 */
export interface InputContext {
  /** Aborted when the request that needed the input is cancelled or the connection ends. */
  signal: AbortSignal;
  era: 'modern' | 'legacy';
}

/**
 * Answers servers' requests for input: modern `input_required` results and legacy
 * server-to-client requests reach the same handlers. A handler that throws declines (an
 * elicitation is answered `decline`; a sampling or roots request gets an error on legacy
 * servers and no answer on modern ones) and the connection goes on.
 *
 * @experimental
 */
export interface InputHandlers {
  elicitation?: (params: ElicitRequestParams, context: InputContext) => Promise<ElicitResult>;
  /** Elicitation modes declared with `elicitation` (default: both `form` and `url`). */
  elicitationModes?: readonly ('form' | 'url')[];
  sampling?: (
    params: CreateMessageRequestParams,
    context: InputContext,
  ) => Promise<CreateMessageResult>;
  roots?: (context: InputContext) => Promise<ListRootsResult>;
}

/**
 * Something the client noticed and worked around, such as a tool left out of `listTools`.
 *
 * @experimental
 */
export interface ClientWarning {
  code:
    | 'invalid-tool-header-annotations'
    | 'invalid-result'
    | 'unexpected-message'
    | 'listen'
    /** Legacy HTTP: the server forgot the session (404) and a new one was started. */
    | 'session-renewed';
  message: string;
  details?: Record<string, unknown>;
}

/**
 * How a modern request is retried after a failed exchange (`McpClientOptions.retry`).
 *
 * @experimental
 */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2); `0` never retries. */
  attempts?: number;
  /** The wait before the first retry, doubled before each next one (default 100 ms). */
  delayMs?: number;
}

/**
 * Options of `McpClient`.
 *
 * @experimental
 */
export interface McpClientOptions {
  clientInfo: Implementation;
  /** Extra capabilities to declare; those of the input handlers are added. */
  capabilities?: ClientCapabilities;
  /** Default `auto`. */
  era?: EraChoice;
  /** Pins the protocol version (its era wins over `era`). */
  protocolVersion?: string;
  /** A verdict from an earlier connection to the same server: skips probing. */
  verdict?: EraVerdict;
  /**
   * How long the stdio probe waits alone; after that `initialize` goes to the same process
   * while the probe keeps listening, and the first answer that proves the era decides. Default
   * 3000.
   */
  probeTimeoutMs?: number;
  /** How long connecting (probe and handshake) may take in all. Default 30000. */
  connectTimeoutMs?: number;
  /** Default per-request timeout, in milliseconds. Default 60000. */
  requestTimeoutMs?: number;
  /**
   * The longest a call whose progress resets its timeout (`resetTimeoutOnProgress`) may run in
   * all, so a server reporting progress forever cannot hold it forever: it then fails with
   * `REQUEST_TIMEOUT` (`details.maxTotalTimeoutMs`) and is cancelled. A call may set its own.
   * Default 600000 (10 minutes); `0` or `Infinity`: no limit.
   */
  maxTotalTimeoutMs?: number;
  handlers?: InputHandlers;
  /**
   * Modern: how a request whose HTTP exchange failed is sent again (any replica behind a load
   * balancer may answer it). A request that never arrived (connection refused, HTTP 503) is
   * always retried; after a 502, a 504 or a broken exchange only one that may run twice:
   * reads, lists, `tasks/get`/`tasks/cancel`, and calls of tools annotated `readOnlyHint` or
   * `idempotentHint` (as last listed). Default: 2 retries, 100 ms then 200 ms apart; `false`:
   * none. Legacy sessions are never retried this way.
   */
  retry?: RetryPolicy | false;
  /** Rounds of modern `input_required` answered before giving up (`TOO_MANY_ROUNDS`). Default 8. */
  maxInputRounds?: number;
  /** Modern: the log level sent with every request; legacy: set with `logging/setLevel`. */
  logLevel?: LoggingLevel;
  /** Receives `notifications/message` log entries. */
  onLog?: (params: Record<string, unknown>) => void;
  /** Receives every notification from the server (after the client's own handling). */
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void;
  onWarning?: (warning: ClientWarning) => void;
  /** Result cache; `false` turns caching off. Default: an in-memory store. */
  cache?: CacheStore | false;
  /** Partitions `private` cache entries (e.g. the user or token identity). Default `''`. */
  principal?: string;
  /** Trace context sent on every modern request unless a call gives its own. */
  trace?: TraceContext;
  /**
   * Modern: declare the tasks extension (`io.modelcontextprotocol/tasks`) on every tool call, so
   * the server may run any of them as a task; `callTool` polls it and resolves with its result.
   * Default false: declared by `callTool(..., { task: true })`, `startToolTask`, and again for a
   * tool that answered -32021 naming the extension.
   */
  tasks?: boolean;
  /**
   * The longest `callTool` waits for a task to end, polling included, in milliseconds; then it
   * cancels the task and fails with `REQUEST_TIMEOUT`. Default 3600000 (one hour).
   */
  maxTaskWaitMs?: number;
  /**
   * Follows every request the connected client sends (tracing, metrics): see
   * `ClientInstrumentation`; `openTelemetry()` of `@twofold/client/opentelemetry` makes one.
   */
  instrumentation?: ClientInstrumentation;
}

/**
 * Options shared by every call.
 *
 * @experimental
 */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Default: `McpClientOptions.requestTimeoutMs`. */
  timeoutMs?: number;
  trace?: TraceContext;
  /** Extra `_meta` entries for this request. */
  meta?: Record<string, unknown>;
  /**
   * Modern: extensions declared for this request only, beside `capabilities.extensions` (each
   * request carries its own capabilities). Ignored in the legacy era.
   */
  extensions?: Record<string, Record<string, unknown>>;
}

/**
 * How a cacheable call uses the cache: `use` (default), `bypass` (neither read nor write) or
 * `refresh` (skip the read, store the fresh result).
 *
 * @experimental
 */
export type CacheMode = 'use' | 'bypass' | 'refresh';

/**
 * Options of cacheable calls (`discover`, the lists, `readResource`).
 *
 * @experimental
 */
export interface CacheableRequestOptions extends RequestOptions {
  cache?: CacheMode;
}

/**
 * Progress reported by the server for a call.
 *
 * @experimental
 */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Options of calls that may need input (`callTool`, `getPrompt`, `readResource`).
 *
 * @experimental
 */
export interface InputRequestOptions extends CacheableRequestOptions {
  onProgress?: (progress: Progress) => void;
  /** Restart the timeout whenever progress arrives. Default false. */
  resetTimeoutOnProgress?: boolean;
  /**
   * Hard limit on the whole call even when progress resets the timeout. Default: the client's
   * `maxTotalTimeoutMs` (10 minutes) when `resetTimeoutOnProgress` is set, else none (the
   * timeout itself is the limit). `0` or `Infinity`: none.
   */
  maxTotalTimeoutMs?: number;
  /**
   * `auto` (default): answer `input_required` with the handlers. `manual`: return the
   * `InputRequiredResult` to the caller, who resumes with `inputResponses` and `requestState`.
   */
  inputMode?: 'auto' | 'manual';
  /** Resuming a manual round: the answers to the previous `inputRequests`. */
  inputResponses?: Record<string, unknown>;
  /** Resuming a manual round: the previous `requestState`, byte-exact. */
  requestState?: string;
}

/**
 * Options of `callTool`.
 *
 * @experimental
 */
export interface CallToolOptions extends InputRequestOptions {
  /** Check `structuredContent` against the tool's `outputSchema` (`INVALID_RESULT`). Default true. */
  validateOutput?: boolean;
  /**
   * Modern: declare the tasks extension for this call, so the server may run it as a task;
   * `callTool` still resolves with the final result. Default: `McpClientOptions.tasks`.
   */
  task?: boolean;
}

/**
 * Options of the all-pages iterators.
 *
 * @experimental
 */
export interface IterateOptions extends CacheableRequestOptions {
  /** Pages fetched at most before `LIMIT_EXCEEDED`. Default 100. */
  maxPages?: number;
}

/**
 * What a `listen` asks for (the modern `SubscriptionFilter`).
 *
 * @experimental
 */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/**
 * One change notification from a `listen` stream.
 *
 * @experimental
 */
export type ChangeNotification =
  | { type: 'toolsListChanged' }
  | { type: 'promptsListChanged' }
  | { type: 'resourcesListChanged' }
  | { type: 'resourceUpdated'; uri: string }
  | { type: 'extension'; method: string; params?: Record<string, unknown> };

/**
 * A live subscription: iterate it for changes; `close()` (or `break`) ends it. Iteration ends
 * normally when the server ends the subscription with its final result, and throws
 * (`CONNECTION_CLOSED`) when the stream drops without one.
 *
 * @experimental
 */
export interface ChangeStream extends AsyncIterable<ChangeNotification> {
  /** The subset of the filter the server will honour (its acknowledgement). */
  readonly acknowledged: Promise<ListenFilter>;
  close(): Promise<void>;
}

/**
 * Options of `listen`.
 *
 * @experimental
 */
export interface ListenOptions {
  signal?: AbortSignal;
  /** Notifications buffered while nobody reads before the stream fails. Default 1000. */
  maxBuffered?: number;
}

/**
 * A manual-mode outcome: the server needs input the caller must supply.
 *
 * @experimental
 */
export type InputRequired = InputRequiredResult;

/**
 * The server facts a client holds after connecting.
 *
 * @experimental
 */
export interface ServerFacts {
  serverInfo?: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}
