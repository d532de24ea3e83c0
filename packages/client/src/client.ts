/**
 * `McpClient`: one client for every MCP server, modern or legacy. It detects the era, then
 * offers the same calls in both, answering input requests, caching what the server allows to
 * be cached, and keeping the tool catalog that modern HTTP headers and output checks need.
 */
import {
  type CallToolResult,
  type CompleteRequestParams,
  type CompleteResult,
  type DiscoverResult,
  ErrorCode,
  type GetPromptResult,
  type Implementation,
  type InputRequiredResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  LocalError,
  LocalErrorCode,
  META_KEYS,
  type Prompt,
  ProtocolError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '@twofold/protocol/experimental';
import { InMemoryCacheStore } from './cache/memory-store';
import { ResultCache } from './cache/result-cache';
import { ToolCatalog } from './catalog/tool-catalog';
import { clientHooks } from './client-hooks';
import { connectSession } from './era/connect';
import { InputAnswerer } from './input/answerer';
import { iteratePages } from './pagination';
import { RequestPipeline } from './request-pipeline';
import { instrumentSession } from './session/instrumented';
import type { EraSession } from './session/types';
import {
  DEFAULT_MAX_TASK_WAIT_MS,
  TASKS_DECLARED,
  type TaskHandleOptions,
  type ToolCallStart,
  ToolCalls,
} from './tasks/tool-calls';
import type { ToolTask } from './tasks/tool-task';
import type {
  CacheableRequestOptions,
  CallToolOptions,
  ChangeStream,
  EraVerdict,
  InputRequestOptions,
  IterateOptions,
  ListenFilter,
  ListenOptions,
  McpClientOptions,
  RequestOptions,
  ServerTarget,
} from './types';

const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_PAGES = 100;

type Page = { cursor?: string };

/**
 * A dual-era MCP client. Connect with `McpClient.connect(target, options)`, where the target
 * comes from `@twofold/client/node` (`stdioServer`, `httpServer`) or wraps any `Transport`.
 *
 * @example
 * ```ts
 * const client = await McpClient.connect(
 *   stdioServer({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }),
 *   { clientInfo: { name: 'my-app', version: '1.0.0' } },
 * );
 * const result = await client.callTool('get-sum', { a: 1, b: 2 }, { timeoutMs: 10_000 });
 * console.log(client.era, result.content);
 * await client.close();
 * ```
 * @experimental
 */
export class McpClient {
  private readonly options: McpClientOptions;
  private readonly answerer: InputAnswerer;
  private readonly catalog = new ToolCatalog();
  private session: EraSession | undefined;
  private pipeline: RequestPipeline | undefined;
  private calls: ToolCalls | undefined;
  private closeError: Error | undefined;
  private closedFlag = false;
  /** Aborted when the connection ends: input handlers still answering must stop then. */
  private readonly ended = new AbortController();

  constructor(options: McpClientOptions) {
    this.options = options;
    this.answerer = new InputAnswerer(options.handlers);
  }

  /** Creates a client and connects it. */
  static async connect(target: ServerTarget, options: McpClientOptions): Promise<McpClient> {
    // `this`, not the class name: a class body naming its class is renamed by the bundler.
    const client = new this(options);
    await client.connect(target);
    return client;
  }

  /** Detects the server's era (unless pinned or known) and opens the session. */
  async connect(target: ServerTarget): Promise<void> {
    if (this.session) throw new Error('McpClient.connect() may be called only once');
    const o = this.options;
    const store = o.cache === false ? undefined : (o.cache ?? new InMemoryCacheStore());
    const cache = store && new ResultCache(store, target.key, o.principal ?? '');
    const session = await connectSession(target, {
      era: o.era ?? 'auto',
      ...(o.protocolVersion === undefined ? {} : { protocolVersion: o.protocolVersion }),
      ...(o.verdict === undefined ? {} : { verdict: o.verdict }),
      probeTimeoutMs: o.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      connectTimeoutMs: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      hooks: clientHooks({
        options: o,
        answerer: this.answerer,
        catalog: this.catalog,
        cache,
        onEnd: (error) => {
          this.closedFlag = true;
          this.closeError = error;
          this.end();
        },
      }),
      headerParams: (tool) => this.catalog.headerParams(tool),
    });
    this.session = instrumentSession(session, o.instrumentation, o.trace);
    this.pipeline = new RequestPipeline({
      session: this.session,
      cache,
      answerer: this.answerer,
      maxInputRounds: o.maxInputRounds ?? 8,
      ended: this.ended.signal,
    });
    const pipeline = this.pipeline;
    this.calls = new ToolCalls({
      send: (method, params, signal) =>
        pipeline.plain(method, params, { signal, extensions: TASKS_DECLARED }),
      answerer: this.answerer,
      ended: this.ended.signal,
      declareAlways: o.tasks === true,
      maxTaskWaitMs: o.maxTaskWaitMs ?? DEFAULT_MAX_TASK_WAIT_MS,
    });
  }

  /** What era detection concluded; persist it and pass it back as `options.verdict`. */
  get verdict(): EraVerdict {
    return this.live().verdict;
  }

  get era(): 'modern' | 'legacy' {
    return this.live().verdict.era;
  }

  get protocolVersion(): string {
    return this.live().verdict.protocolVersion;
  }

  get serverInfo(): Implementation | undefined {
    return this.live().facts.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.live().facts.capabilities;
  }

  get instructions(): string | undefined {
    return this.live().facts.instructions;
  }

  /**
   * Calls `listener` once when the connection ends, by `close()` or by the server (a stdio
   * server exiting, a legacy session dropped), with the cause when there is one. A listener
   * added after the end is called at once. Returns a function that removes the listener.
   */
  onClose(listener: (cause: Error | undefined) => void): () => void {
    const call = () => listener(this.closeError);
    if (this.ended.signal.aborted) {
      call();
      return () => {};
    }
    this.ended.signal.addEventListener('abort', call, { once: true });
    return () => this.ended.signal.removeEventListener('abort', call);
  }

  /** True once the connection has ended (by `close()` or by the server). */
  get closed(): boolean {
    return this.closedFlag;
  }

  /**
   * The server's discovery result. Legacy servers have no `server/discover`: the answer is
   * built from the `initialize` result (its one negotiated version, capabilities, instructions).
   */
  async discover(options: CacheableRequestOptions = {}): Promise<DiscoverResult> {
    const pipeline = this.run();
    const session = this.live();
    if (session.verdict.era === 'modern') {
      return pipeline.cached<DiscoverResult>('server/discover', undefined, options);
    }
    const { facts } = session;
    const result: DiscoverResult = {
      supportedVersions: [session.verdict.protocolVersion],
      capabilities: facts.capabilities,
    };
    if (facts.instructions !== undefined) result.instructions = facts.instructions;
    if (facts.serverInfo) result._meta = { [META_KEYS.serverInfo]: facts.serverInfo };
    return result;
  }

  /**
   * One page of tools. Tools whose `x-mcp-header` annotations are invalid are left out, with a
   * warning (`onWarning`), as the Streamable HTTP page requires.
   */
  async listTools(
    page: Page = {},
    options: CacheableRequestOptions = {},
  ): Promise<ListToolsResult> {
    const result = await this.run().cached<ListToolsResult>('tools/list', page, options);
    const { tools, excluded } = this.catalog.accept(result.tools, this.era === 'modern');
    for (const { name, errors } of excluded) {
      this.options.onWarning?.({
        code: 'invalid-tool-header-annotations',
        message: `tool ${JSON.stringify(name)} left out: invalid x-mcp-header annotations`,
        details: { tool: name, errors },
      });
    }
    return { ...result, tools };
  }

  async listResources(
    page: Page = {},
    options: CacheableRequestOptions = {},
  ): Promise<ListResourcesResult> {
    return this.run().cached<ListResourcesResult>('resources/list', page, options);
  }

  async listResourceTemplates(
    page: Page = {},
    options: CacheableRequestOptions = {},
  ): Promise<ListResourceTemplatesResult> {
    const method = 'resources/templates/list';
    return this.run().cached<ListResourceTemplatesResult>(method, page, options);
  }

  async listPrompts(
    page: Page = {},
    options: CacheableRequestOptions = {},
  ): Promise<ListPromptsResult> {
    return this.run().cached<ListPromptsResult>('prompts/list', page, options);
  }

  /** Every tool, page by page (at most `maxPages`, default 100; a repeated cursor fails). */
  iterateTools(options: IterateOptions = {}): AsyncGenerator<Tool> {
    return this.pages(
      options,
      (page) => this.listTools(page, options),
      (r) => r.tools,
    );
  }

  iterateResources(options: IterateOptions = {}): AsyncGenerator<Resource> {
    return this.pages(
      options,
      (page) => this.listResources(page, options),
      (r) => r.resources,
    );
  }

  iterateResourceTemplates(options: IterateOptions = {}): AsyncGenerator<ResourceTemplate> {
    const list = (page: Page) => this.listResourceTemplates(page, options);
    return this.pages(options, list, (r) => r.resourceTemplates);
  }

  iteratePrompts(options: IterateOptions = {}): AsyncGenerator<Prompt> {
    return this.pages(
      options,
      (page) => this.listPrompts(page, options),
      (r) => r.prompts,
    );
  }

  /**
   * Calls a tool. Input requests are answered by the handlers (or returned, in manual mode);
   * a -32020 header mismatch refreshes the tool list and retries once; `structuredContent` is
   * checked against the tool's `outputSchema` when the tool has been listed.
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: CallToolOptions & { inputMode?: 'auto' },
  ): Promise<CallToolResult>;
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallToolOptions & { inputMode: 'manual' },
  ): Promise<CallToolResult | InputRequiredResult>;
  async callTool(
    name: string,
    args?: Record<string, unknown>,
    options: CallToolOptions = {},
  ): Promise<CallToolResult | InputRequiredResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    // Async for its rejections (not connected, closed); chained rather than awaited, so that
    // no frame waits on this hot path.
    return this.toolCalls()
      .settle(options, (o) => this.sendToolCall(params, o))
      .then((result) => {
        if (result.resultType === 'input_required') return result as unknown as InputRequiredResult;
        const call = result as unknown as CallToolResult;
        if (options.validateOutput !== false) this.catalog.assertOutput(name, call);
        return call;
      });
  }

  /**
   * Calls a tool with the tasks extension declared (modern) and hands back the task the server
   * made of it: its status, input rounds answered by the handlers, `result()`, `cancel()`. A
   * server that answers at once (or a legacy one) gives `{ result }` instead.
   */
  async startToolTask(
    name: string,
    args?: Record<string, unknown>,
    options: CallToolOptions = {},
  ): Promise<ToolCallStart> {
    const params = args === undefined ? { name } : { name, arguments: args };
    const start = await this.toolCalls().start(options, (o) => this.sendToolCall(params, o));
    if (start.result && options.validateOutput !== false) {
      this.catalog.assertOutput(name, start.result);
    }
    return start;
  }

  /** A handle on a task started earlier (by this client or one before it), by its id. */
  resumeToolTask(taskId: string, options: TaskHandleOptions = {}): Promise<ToolTask> {
    return this.toolCalls().resume(taskId, options);
  }

  /** One `tools/call`; a -32020 header mismatch refreshes the tool list and retries once. */
  private sendToolCall(
    params: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<Record<string, unknown>> {
    const call = () => this.run().withInput('tools/call', params, options);
    return call().catch(async (error: unknown) => {
      if (!(error instanceof ProtocolError) || error.code !== ErrorCode.HeaderMismatch) throw error;
      // The server's tool definitions changed under us: refresh the headers, retry once.
      const { signal, timeoutMs } = options;
      const refresh = { cache: 'refresh' as const, ...(signal ? { signal } : {}) };
      for await (const _ of this.iterateTools({
        ...refresh,
        ...(timeoutMs ? { timeoutMs } : {}),
      })) {
        // Listing fills the catalog.
      }
      return call();
    });
  }

  readResource(
    uri: string,
    options?: InputRequestOptions & { inputMode?: 'auto' },
  ): Promise<ReadResourceResult>;
  readResource(
    uri: string,
    options: InputRequestOptions & { inputMode: 'manual' },
  ): Promise<ReadResourceResult | InputRequiredResult>;
  async readResource(
    uri: string,
    options: InputRequestOptions = {},
  ): Promise<ReadResourceResult | InputRequiredResult> {
    return this.run().withInput<ReadResourceResult>('resources/read', { uri }, options);
  }

  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: InputRequestOptions & { inputMode?: 'auto' },
  ): Promise<GetPromptResult>;
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: InputRequestOptions & { inputMode: 'manual' },
  ): Promise<GetPromptResult | InputRequiredResult>;
  async getPrompt(
    name: string,
    args?: Record<string, string>,
    options: InputRequestOptions = {},
  ): Promise<GetPromptResult | InputRequiredResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.run().withInput<GetPromptResult>('prompts/get', params, options);
  }

  /** Argument completion (`completion/complete`). */
  async complete(
    params: CompleteRequestParams,
    options: RequestOptions = {},
  ): Promise<CompleteResult> {
    return this.run().plain<CompleteResult>('completion/complete', { ...params }, options);
  }

  /**
   * Change notifications as an async iterable: modern `subscriptions/listen`, or on legacy
   * servers the same API fed by `resources/subscribe` and list-changed notifications.
   */
  listen(filter: ListenFilter, options: ListenOptions = {}): ChangeStream {
    return this.live().listen(filter, options);
  }

  /** Checks the server answers: legacy `ping`, modern `server/discover`. */
  async ping(options: RequestOptions = {}): Promise<void> {
    this.run();
    return this.live().ping(options);
  }

  /**
   * Any request, for methods without a dedicated call (extensions). Input requests are answered
   * for the methods that may need input.
   */
  async request(
    method: string,
    params?: Record<string, unknown>,
    options: InputRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.run().withInput(method, params, options);
  }

  /** Ends the session (stops a stdio server, deletes a legacy HTTP session). Idempotent. */
  async close(): Promise<void> {
    await this.session?.close();
    this.closedFlag = true;
    this.end();
  }

  private end(): void {
    if (!this.ended.signal.aborted) this.ended.abort(this.closedError());
  }

  private pages<R extends { nextCursor?: string | undefined }, T>(
    options: IterateOptions,
    list: (page: Page) => Promise<R>,
    items: (result: R) => T[],
  ): AsyncGenerator<T> {
    const fetchPage = async (cursor: string | undefined) => {
      const result = await list(cursor === undefined ? {} : { cursor });
      return { items: items(result), nextCursor: result.nextCursor };
    };
    return iteratePages(fetchPage, options.maxPages ?? DEFAULT_MAX_PAGES);
  }

  private live(): EraSession {
    if (!this.session) {
      throw new LocalError(
        LocalErrorCode.NotConnected,
        'McpClient is not connected; call connect() first',
      );
    }
    return this.session;
  }

  private toolCalls(): ToolCalls {
    this.run();
    return this.calls as ToolCalls;
  }

  private run(): RequestPipeline {
    this.live();
    if (this.closedFlag) throw this.closedError();
    return this.pipeline as RequestPipeline;
  }

  private closedError(): LocalError {
    return new LocalError(
      LocalErrorCode.ConnectionClosed,
      'the connection to the server has ended',
      this.closeError ? { cause: this.closeError } : {},
    );
  }
}
