/**
 * The server author's contract: what a tool, resource or prompt handler receives and returns.
 * Era-neutral: the same handler serves modern (2026-07-28) and legacy clients; the dispatchers
 * adapt the wire (resultType, cache hints, not-found codes, input requests).
 */
import type {
  CacheScope,
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageResult,
  ElicitResult,
  GetPromptResult,
  Icon,
  Implementation,
  InputRequest,
  ListRootsResult,
  LoggingLevel,
  ReadResourceResult,
  RequestId,
  ToolAnnotations,
  TraceContext,
} from '@twofold/protocol/experimental';
import type { AuthInfo } from './auth/types';

/**
 * Cache hints of cacheable results (modern wire only; never sent to legacy clients).
 *
 * @experimental
 */
export interface CachePolicy {
  ttlMs: number;
  cacheScope: CacheScope;
}

/**
 * A schema for tool input/output or prompt arguments: a zod schema, any Standard Schema that can
 * produce JSON Schema, or a raw JSON Schema 2020-12 object. Converted to JSON Schema once, at
 * registration.
 *
 * @experimental
 */
export type SchemaInput = unknown;

/**
 * What every handler gets about the request it serves.
 *
 * @experimental
 */
export interface RequestContext {
  /** `modern` (2026-07-28, stateless) or `legacy` (an initialize session). */
  readonly era: 'modern' | 'legacy';
  /** The protocol version of this request (modern) or of the session (legacy). */
  readonly protocolVersion: string;
  readonly requestId: RequestId;
  /** Client capabilities of this request (modern) or of the session (legacy). */
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation | undefined;
  /** The legacy session id, when the request arrived in one. */
  readonly sessionId?: string | undefined;
  /** Aborted when the client cancels or goes away. */
  readonly signal: AbortSignal;
  /**
   * The W3C trace context the request carried in its `_meta` (`traceparent`, `tracestate`,
   * `baggage`), when its `traceparent` is valid; a handler calling onwards passes it on.
   */
  readonly trace?: TraceContext | undefined;
  /**
   * What the request's access token grants, verified by the HTTP handler's `auth` option (per
   * request, modern; per POST, legacy, so a token refreshed mid-session is seen at once), or
   * what the host passed to `serveStdio`/`serveTransport`. `undefined` without either. It never
   * holds the token itself.
   */
  readonly auth?: AuthInfo | undefined;
  /**
   * The HTTP request's headers (lower-case names; the POST that carried the request, legacy),
   * without `Authorization` and `Proxy-Authorization`: credentials reach handlers only as
   * `auth`, so none can be passed on by mistake. `undefined` off HTTP.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Legacy Streamable HTTP with an event store (2025-11-25): ends this request's SSE stream now
   * while the handler goes on (SEP-1699 polling); the client reconnects with `Last-Event-ID` and
   * gets what follows, the result included. `undefined` where a stream cannot be resumed.
   */
  readonly closeSseStream?: (() => Promise<void>) | undefined;
  /** Reports progress when the client asked for it (a no-op otherwise); `progress` must grow. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Logs to the client when it asked for that level or a more verbose one (a no-op otherwise). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Answers of an earlier round of input requests (modern retries carry them; on legacy
   * sessions twofold gathers them with real server-to-client requests). Keyed as asked.
   * Unchecked: what the client sent. Prefer {@link RequestContext.inputResponse}.
   */
  readonly inputResponses?: Readonly<Record<string, unknown>> | undefined;
  /**
   * The answer to the input request the previous round asked under `key`, checked against
   * that request: it must be a result of the method asked (`ElicitResult`,
   * `CreateMessageResult`, `ListRootsResult`), and an accepted form elicitation's `content`
   * must fit the `requestedSchema` that was sent. `undefined` when nothing was asked under
   * `key` in the previous round or the client sent no answer for it: ask again.
   *
   * @throws InputResponseError (-32602 on the wire, `data.reason: "invalid-input-response"`)
   *   when the answer does not fit.
   */
  inputResponse(key: string): InputResponse | undefined;
  /**
   * The `state` the handler put on its `InputRequired` in the previous round, given back on the
   * retry: sealed (encrypted and authenticated) in the `requestState` on modern requests, so it
   * must be JSON; kept in memory on legacy sessions. `undefined` on a first attempt.
   */
  readonly state?: unknown;
  /**
   * The task this call runs as (a tool with `taskSupport`, called by a client that declared
   * the tasks extension); `undefined` when the call is answered directly.
   */
  readonly task?: TaskContext | undefined;
}

/**
 * How a tool takes part in the tasks extension (SEP-2663):
 * - `optional`: a client that declares the extension gets a task (a `CreateTaskResult`), any
 *   other client the result at once;
 * - `required`: it runs only as a task; a client without the extension (and every legacy
 *   session, where the extension is not defined) gets -32021 naming the extension.
 *
 * @experimental
 */
export type TaskSupport = 'optional' | 'required';

/**
 * What a handler gets as `context.task` while it runs as a task.
 *
 * @experimental
 */
export interface TaskContext {
  readonly taskId: string;
  /**
   * Aborted when the client cancels the task (`tasks/cancel` served by this process); the same
   * signal as `context.signal`. The task stays `cancelled` whatever the handler returns.
   */
  readonly signal: AbortSignal;
  /** Sets the task's `statusMessage` (progress for `working`, seen by `tasks/get`). */
  reportStatus(message: string): Promise<void>;
}

/**
 * A checked answer to an input request (see {@link RequestContext.inputResponse}).
 *
 * @experimental
 */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/**
 * Thrown (or returned) by a handler that needs input from the client before it can finish:
 * elicitation, sampling or roots. On modern requests it becomes an `input_required` result
 * with a signed `requestState`; on legacy sessions twofold sends the requests to the client and
 * calls the handler again with `inputResponses`.
 *
 * @experimental
 */
export class InputRequired {
  constructor(
    readonly inputRequests: Readonly<Record<string, InputRequest>>,
    /**
     * Handler state carried to the retry (encrypted, authenticated and bound by twofold on
     * modern requests: the client can neither read nor change it).
     */
    readonly state?: unknown,
  ) {}
}

/**
 * What a tool handler may return: a full result, or shorthand (a string becomes one text block,
 * an array of blocks becomes `content`).
 *
 * @experimental
 */
export type ToolReturn = CallToolResult | string | ContentBlock[] | InputRequired;

/**
 * A tool's definition.
 *
 * @experimental
 */
export interface ToolDefinition<Args = Record<string, unknown>> {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: SchemaInput;
  outputSchema?: SchemaInput;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /**
   * Scopes an HTTP caller's token must grant (with the handler's `auth.requiredScopes`); without
   * them the call is answered 403 with an `insufficient_scope` challenge. Listing is not filtered.
   * Not checked off HTTP.
   */
  requiredScopes?: readonly string[];
  /**
   * Opts the tool in to the tasks extension (SEP-2663): with a client that declares it, a call
   * answers at once with a task the client polls, and the handler runs as that task (with
   * `context.task`; an `InputRequired` then asks through `tasks/get` and `tasks/update`).
   */
  taskSupport?: TaskSupport;
  /**
   * With `taskSupport`: runs before the task is created, on every attempt, so input can be
   * gathered synchronously first (an `InputRequired` is an ordinary `input_required` result).
   * Return nothing to go on (the handler then sees the same inputs), or a result to answer at
   * once without a task.
   */
  beforeTask?: (
    args: Args,
    context: RequestContext,
  ) => ToolReturn | undefined | Promise<ToolReturn | undefined>;
  handler: (args: Args, context: RequestContext) => ToolReturn | Promise<ToolReturn>;
}

/**
 * A static resource.
 *
 * @experimental
 */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** Cache hints of `resources/read` results (modern), overriding the server's. */
  cache?: CachePolicy;
  /**
   * Scopes an HTTP caller's token must grant (with the handler's `auth.requiredScopes`); without
   * them a read or subscription is answered 403 with an `insufficient_scope` challenge. Listing is
   * not filtered. Not checked off HTTP.
   */
  requiredScopes?: readonly string[];
  read: (
    uri: URL,
    context: RequestContext,
  ) => ReadResourceResult | InputRequired | Promise<ReadResourceResult | InputRequired>;
}

/**
 * A resource template (RFC 6570), with optional completion of its variables.
 *
 * @experimental
 */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  cache?: CachePolicy;
  /**
   * Scopes an HTTP caller's token must grant (with the handler's `auth.requiredScopes`); without
   * them reading a URI it matches, or completing its variables, is answered 403 with an
   * `insufficient_scope` challenge. Listing is not filtered. Not checked off HTTP.
   */
  requiredScopes?: readonly string[];
  /** Completion of template variables, by variable name. */
  complete?: Record<
    string,
    (value: string, context: CompletionContext) => string[] | Promise<string[]>
  >;
  read: (
    uri: URL,
    variables: Record<string, string | string[]>,
    context: RequestContext,
  ) => ReadResourceResult | InputRequired | Promise<ReadResourceResult | InputRequired>;
}

/**
 * A prompt, with arguments given as a schema or as a list, and optional completion.
 *
 * @experimental
 */
export interface PromptDefinition<Args = Record<string, string>> {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** Arguments: a list, or a schema whose top-level string properties are the arguments. */
  arguments?:
    | { name: string; title?: string; description?: string; required?: boolean }[]
    | SchemaInput;
  complete?: Record<
    string,
    (value: string, context: CompletionContext) => string[] | Promise<string[]>
  >;
  /**
   * Scopes an HTTP caller's token must grant (with the handler's `auth.requiredScopes`); without
   * them getting it, or completing its arguments, is answered 403 with an `insufficient_scope`
   * challenge. Listing is not filtered. Not checked off HTTP.
   */
  requiredScopes?: readonly string[];
  get: (
    args: Args,
    context: RequestContext,
  ) => GetPromptResult | InputRequired | Promise<GetPromptResult | InputRequired>;
}

/**
 * What a completion function gets besides the partial value.
 *
 * @experimental
 */
export interface CompletionContext {
  /** Other arguments already filled in (`context.arguments` of the request). */
  readonly arguments: Readonly<Record<string, string>>;
  readonly request: RequestContext;
}

/**
 * A registered tool, resource, template or prompt, changeable at run time (each change emits
 * the matching list-changed notification).
 *
 * @experimental
 */
export interface Registered {
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  remove(): void;
}
