/**
 * The era-neutral operations a server performs. The registry implements them once; the modern
 * dispatcher and the legacy session engine call them and adapt the wire (resultType, cache
 * hints, serverInfo, not-found codes, input requests).
 */
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  ServerCapabilities,
} from '@twofold/protocol/experimental';
import type { CachePolicy, InputRequired, RequestContext, TaskSupport } from '../api';

/**
 * Why an operation could not run. The dispatchers map it to the wire: `not-found` is -32602 on
 * modern and for tools/prompts on legacy, -32002 for resources on legacy; `invalid` is -32602.
 *
 * @experimental
 */
export class OperationError extends Error {
  override readonly name = 'OperationError';
  constructor(
    readonly kind: 'not-found' | 'invalid' | 'unsupported',
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * A page of a list operation plus the cache hints its result should carry on the modern wire.
 *
 * @experimental
 */
export type Listed<T> = T & { cache: CachePolicy };

/**
 * The operations, all era-neutral. Lists are in a deterministic order (by name, then URI) and
 * their cursors are opaque but stable across instances registering the same items. An invalid
 * cursor throws `OperationError('invalid')`.
 *
 * @experimental
 */
export interface Operations {
  /** Capabilities the registered features imply (tools/prompts/resources with listChanged, …). */
  capabilities(): ServerCapabilities;
  listTools(cursor: string | undefined): Listed<ListToolsResult>;
  /**
   * Validates arguments against the tool's input schema; failures and throws become `isError`.
   * With `context.task` it runs the handler as that task; without, a task tool's `beforeTask`
   * runs first, and a `required` one fails with -32021 (it runs only as a task).
   */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    context: RequestContext,
  ): Promise<CallToolResult | InputRequired>;
  /** The tasks extension: how tool `name` runs as a task; `undefined` when it never does. */
  taskSupport?(name: string): TaskSupport | undefined;
  /**
   * The stage of a task tool before its task exists (its `beforeTask`): `undefined` says
   * create the task; a result or an `InputRequired` answers the call instead.
   */
  beforeTask?(
    name: string,
    args: Record<string, unknown> | undefined,
    context: RequestContext,
  ): Promise<CallToolResult | InputRequired | undefined>;
  listPrompts(cursor: string | undefined): Listed<ListPromptsResult>;
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    context: RequestContext,
  ): Promise<GetPromptResult | InputRequired>;
  listResources(cursor: string | undefined): Listed<ListResourcesResult>;
  listResourceTemplates(cursor: string | undefined): Listed<ListResourceTemplatesResult>;
  readResource(
    uri: string,
    context: RequestContext,
  ): Promise<Listed<ReadResourceResult> | InputRequired>;
  complete(params: CompleteRequestParams, context: RequestContext): Promise<CompleteResult>;
  /** Subscribes to list and resource changes; returns the unsubscribe function. */
  onChange(listener: (change: Change) => void): () => void;
  /**
   * Optional hint that a client now wants `resource-updated` changes for `uri` (a legacy
   * `resources/subscribe`, or a URI of a modern listen's `resourceSubscriptions`), until the
   * returned release is called. Operations that learn of updates only on request (a proxy
   * subscribing upstream) need it; the registry announces every update anyway.
   */
  watchResource?(uri: string): () => void;
  /**
   * The scopes an HTTP caller needs for one item, beyond the endpoint's own (its definition's
   * `requiredScopes`); `undefined` when there is no such item. The HTTP handler's `auth` asks
   * before a call, a read, a subscription or a completion reaches the operation. Operations
   * without it need no item scopes.
   */
  requiredScopes?(target: ScopeTarget): readonly string[] | undefined;
}

/**
 * An item whose required scopes are asked for: a tool or prompt by name, a resource by the URI
 * read (a static resource, else the template that would serve it), a template by its text.
 *
 * @experimental
 */
export type ScopeTarget =
  | { kind: 'tool' | 'prompt'; name: string }
  | { kind: 'resource'; uri: string }
  | { kind: 'resourceTemplate'; uriTemplate: string };

/**
 * A change the server announces: a list changed, or a resource was updated.
 *
 * @experimental
 */
export type Change =
  | { kind: 'tools' | 'prompts' | 'resources' }
  | { kind: 'resource-updated'; uri: string };
