/**
 * `Operations` backed by the upstream server: lists from the catalog's snapshot, calls
 * forwarded through the upstream client with the downstream request's progress, cancellation,
 * trace context and (modern upstream) capabilities, and input rounds carried across:
 * - a modern upstream's `input_required` becomes `InputRequired` downstream, its
 *   `requestState` kept byte-exact in the state, and the retry resumes upstream with the
 *   answers (nothing is held in memory);
 * - a legacy upstream's own requests become `InputRequired` while its call stays pending in the
 *   `CallTable`, named by the state, until the retry brings the answers.
 * The served side (`@twofold/server`) turns `InputRequired` into its era's wire form. Tasks
 * cross as tasks (bridged-task.ts).
 */
import type { InputRequestOptions, McpClient } from '@twofold/client/experimental';
import {
  type CallToolResult,
  type CompleteRequestParams,
  type CompleteResult,
  ErrorCode,
  type GetPromptResult,
  type InputRequest,
  META_KEYS,
  ProtocolError,
  type ReadResourceResult,
  type ServerCapabilities,
  TASKS_EXTENSION_ID,
  type TraceContext,
} from '@twofold/protocol/experimental';
import {
  type CachePolicy,
  type Change,
  InputRequired,
  type Listed,
  OperationError,
  type Operations,
  type RequestContext,
  type TaskSupport,
} from '@twofold/server/experimental';
import type { PendingCallState, UpstreamControls } from './bridged-call';
import { runBridgedTask, upstreamOffersTasks, withUpstreamTasks } from './bridged-task';
import type { CallTable } from './call-table';
import type { ListKind, UpstreamCatalog } from './upstream-catalog';

/** The state of a modern upstream's round: its `requestState`, if any, echoed byte-exact. */
interface UpstreamRoundState {
  upstreamRound: true;
  requestState?: string;
}

type UpstreamCall = (options: InputRequestOptions) => Promise<object>;

// The bridge keeps no cache of its own: lists follow the upstream's change notifications.
const NO_CACHE: CachePolicy = { ttlMs: 0, cacheScope: 'private' };

/** How the operations treat the downstream request's trace context. */
export interface BridgedOperationsOptions {
  /**
   * Send it upstream as it came. `false` when the upstream client is instrumented: its own
   * span's context (a child in the same trace) goes upstream instead.
   */
  forwardTrace: boolean;
}

/** The upstream-backed operations of one bridge. */
export class BridgedOperations implements Operations {
  constructor(
    private readonly client: McpClient,
    private readonly catalog: UpstreamCatalog,
    private readonly calls: CallTable,
    private readonly options: BridgedOperationsOptions,
  ) {}

  capabilities(): ServerCapabilities {
    return withUpstreamTasks(this.client, this.catalog.capabilities);
  }

  /** Every tool may run as a task when the upstream offers tasks: it decides per call. */
  taskSupport(): TaskSupport | undefined {
    return upstreamOffersTasks(this.client) ? 'optional' : undefined;
  }

  listTools(cursor: string | undefined) {
    return this.page('tools', cursor, { tools: this.catalog.tools });
  }

  listPrompts(cursor: string | undefined) {
    return this.page('prompts', cursor, { prompts: this.catalog.prompts });
  }

  listResources(cursor: string | undefined) {
    return this.page('resources', cursor, { resources: this.catalog.resources });
  }

  listResourceTemplates(cursor: string | undefined) {
    const templates = { resourceTemplates: this.catalog.resourceTemplates };
    return this.page('resources', cursor, templates);
  }

  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    context: RequestContext,
  ): Promise<CallToolResult | InputRequired> {
    if (context.task) {
      const forwarded = { ...this.traceOf(context), meta: this.capabilitiesMeta(context, true) };
      return runBridgedTask(this.client, name, args, context, forwarded);
    }
    const outcome = await this.bridge(context, (options) =>
      this.client.callTool(name, args, { ...options, inputMode: 'manual', validateOutput: false }),
    );
    return outcome instanceof InputRequired
      ? outcome
      : (completed(outcome) as unknown as CallToolResult);
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    context: RequestContext,
  ): Promise<GetPromptResult | InputRequired> {
    const outcome = await this.bridge(context, (options) =>
      this.client.getPrompt(name, args, { ...options, inputMode: 'manual' }),
    );
    return outcome instanceof InputRequired
      ? outcome
      : (completed(outcome) as unknown as GetPromptResult);
  }

  async readResource(
    uri: string,
    context: RequestContext,
  ): Promise<Listed<ReadResourceResult> | InputRequired> {
    const outcome = await this.bridge(context, (options) =>
      this.client.readResource(uri, { ...options, inputMode: 'manual' }),
    );
    if (outcome instanceof InputRequired) return outcome;
    const result = completed(outcome) as unknown as ReadResourceResult;
    return { ...result, cache: cacheOf(outcome) };
  }

  complete(params: CompleteRequestParams, context: RequestContext): Promise<CompleteResult> {
    // The downstream `_meta` belongs to the downstream hop; the client builds the upstream one.
    const { _meta, ...forwarded } = params as CompleteRequestParams & { _meta?: unknown };
    return this.client.complete(forwarded as CompleteRequestParams, {
      signal: context.signal,
      ...this.traceOf(context),
    });
  }

  onChange(listener: (change: Change) => void): () => void {
    return this.catalog.onChange(listener);
  }

  watchResource(uri: string): () => void {
    return this.catalog.watchResource(uri);
  }

  /** The snapshot is served as one page: there is no cursor to continue from. */
  private page<T extends object>(kind: ListKind, cursor: string | undefined, page: T): Listed<T> {
    if (cursor !== undefined) throw new OperationError('invalid', `Invalid cursor: ${cursor}`);
    this.catalog.listed(kind);
    return { ...page, cache: NO_CACHE };
  }

  /** Runs one downstream round of a call that may need input; see the file comment. */
  private async bridge(
    context: RequestContext,
    call: UpstreamCall,
  ): Promise<Record<string, unknown> | InputRequired> {
    const state = context.state;
    if (isPendingCallState(state)) {
      const pending = this.calls.find(state.call);
      if (pending === undefined) {
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          'This bridged request is no longer pending upstream (it timed out, or the bridge ' +
            'restarted); send it again without requestState',
        );
      }
      return fromUpstream(await pending.runRound(context));
    }
    const resume = isUpstreamRoundState(state)
      ? {
          inputResponses: { ...context.inputResponses },
          ...(state.requestState === undefined ? {} : { requestState: state.requestState }),
        }
      : {};
    const started = this.calls.start(context, (controls) =>
      call({ ...this.forwarding(context, controls), ...resume }),
    );
    return fromUpstream(await started.runRound(context));
  }

  /** The downstream trace context, when it goes upstream as it came. */
  private traceOf(context: RequestContext): { trace?: TraceContext } {
    const { trace } = context;
    return this.options.forwardTrace && trace !== undefined ? { trace } : {};
  }

  /** What the upstream request carries of the downstream one. */
  private forwarding(context: RequestContext, controls: UpstreamControls): InputRequestOptions {
    return {
      signal: controls.signal,
      onProgress: controls.onProgress,
      // The downstream client times its own request out, and its cancel crosses the bridge.
      timeoutMs: 0,
      ...this.traceOf(context),
      // A modern upstream judges each request's capabilities: they are the downstream
      // client's. A legacy upstream has the bridge's, fixed at initialize.
      ...(this.client.era === 'modern' ? { meta: this.capabilitiesMeta(context, false) } : {}),
    };
  }

  /** The downstream client's input capabilities, and the tasks extension for a task's call. */
  private capabilitiesMeta(context: RequestContext, task: boolean): Record<string, unknown> {
    const capabilities = inputCapabilities(context);
    if (task) capabilities.extensions = { [TASKS_EXTENSION_ID]: {} };
    return { [META_KEYS.clientCapabilities]: capabilities };
  }
}

/** A modern upstream's `input_required` becomes `InputRequired`; anything else passes on. */
function fromUpstream(
  outcome: Record<string, unknown> | InputRequired,
): Record<string, unknown> | InputRequired {
  if (outcome instanceof InputRequired || outcome.resultType !== 'input_required') return outcome;
  const inputRequests = (outcome.inputRequests ?? {}) as Record<string, InputRequest>;
  const state: UpstreamRoundState = { upstreamRound: true };
  if (typeof outcome.requestState === 'string') state.requestState = outcome.requestState;
  return new InputRequired(inputRequests, state);
}

/** The result without the modern wire fields, which the served side sets for its own era. */
function completed(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType, ttlMs, cacheScope, ...rest } = result;
  return rest;
}

/** A modern upstream's cache hints of a read, else none. */
function cacheOf(result: Record<string, unknown>): CachePolicy {
  const { ttlMs, cacheScope } = result;
  const scoped = cacheScope === 'public' || cacheScope === 'private';
  return typeof ttlMs === 'number' && ttlMs >= 0 && scoped ? { ttlMs, cacheScope } : NO_CACHE;
}

/** The only kinds of input the bridge can carry; other extensions stay on this hop. */
function inputCapabilities(context: RequestContext): Record<string, unknown> {
  const { elicitation, sampling, roots } = context.clientCapabilities;
  return {
    ...(elicitation === undefined ? {} : { elicitation }),
    ...(sampling === undefined ? {} : { sampling }),
    ...(roots === undefined ? {} : { roots }),
  };
}

function isPendingCallState(state: unknown): state is PendingCallState {
  return typeof (state as PendingCallState | undefined)?.call === 'string';
}

function isUpstreamRoundState(state: unknown): state is UpstreamRoundState {
  return (state as UpstreamRoundState | undefined)?.upstreamRound === true;
}
