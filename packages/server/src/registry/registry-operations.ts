/**
 * The era-neutral operations, served from the registry. Wire details (resultType, cache hints
 * on the wire, error codes) are the dispatchers' business; this file decides what a call means.
 */
import {
  type CallToolResult,
  type CompleteRequestParams,
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  ProtocolError,
  type ReadResourceResult,
  type ServerCapabilities,
} from '@twofold/protocol/experimental';
import {
  type CachePolicy,
  InputRequired,
  type RequestContext,
  type TaskSupport,
  type ToolReturn,
} from '../api';
import { tasksRequiredError, withTasksExtension } from '../operations/task-capability';
import {
  type Change,
  type Listed,
  OperationError,
  type Operations,
  type ScopeTarget,
} from '../operations/types';
import type { ValidationResult } from '../schema/types';
import type { Completer } from './prompts';
import type { Registry } from './registry';
import {
  checkOutput,
  errorResult,
  messageOf,
  toCallToolResult,
  withoutWireFields,
} from './results';
import type { ToolEntry } from './tools';

/** The spec's cap on completion values per response. */
const MAX_COMPLETION_VALUES = 100;

/**
 * Settings of {@link RegistryOperations}.
 *
 * @experimental
 */
export interface RegistryOperationsOptions {
  /** Items per list page. */
  pageSize: number;
  /** Cache hints of lists, and of reads whose registration has none. */
  cache: CachePolicy;
}

/** Where a URI is read from, and the cache hints of its result. */
interface ReadTarget {
  read: () => ReadResult | Promise<ReadResult>;
  cache: CachePolicy | undefined;
}
type ReadResult = ReadResourceResult | InputRequired;

/** Runs a handler; an `InputRequired` it throws is returned like one it returns. */
async function runHandler<R>(call: () => R | InputRequired | Promise<R | InputRequired>) {
  try {
    return await call();
  } catch (error) {
    if (error instanceof InputRequired) return error;
    throw error;
  }
}

/**
 * The `Operations` of a registry. Lists are ordered by name (tools, prompts), URI (resources)
 * or template text (templates); see `OrderedCollection` for cursors.
 *
 * @experimental
 */
export class RegistryOperations implements Operations {
  private capabilitiesCache: ServerCapabilities | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly options: RegistryOperationsOptions,
  ) {
    registry.onChange((change) => {
      if (change.kind !== 'resource-updated') this.capabilitiesCache = undefined;
    });
  }

  /**
   * A feature is declared once anything of its kind is registered (enabled or not), always
   * with `listChanged` (items may change at run time); resources also with `subscribe`.
   * `completions` once a prompt or template has a completion function; `logging` always,
   * since every handler may log.
   */
  capabilities(): ServerCapabilities {
    if (this.capabilitiesCache !== undefined) return this.capabilitiesCache;
    const { tools, prompts, resources, templates } = this.registry;
    const completable = [...prompts.all(), ...templates.all()].some(
      (slot) => Object.keys(slot.entry.complete).length > 0,
    );
    this.capabilitiesCache = {
      logging: {},
      ...(completable ? { completions: {} } : {}),
      ...(prompts.size > 0 ? { prompts: { listChanged: true } } : {}),
      ...(resources.size + templates.size > 0
        ? { resources: { subscribe: true, listChanged: true } }
        : {}),
      ...(tools.size > 0 ? { tools: { listChanged: true } } : {}),
      ...(this.registry.extensions.size > 0
        ? { extensions: Object.fromEntries(this.registry.extensions) }
        : {}),
    };
    if ([...tools.all()].some((slot) => slot.entry.taskSupport !== undefined)) {
      this.capabilitiesCache = withTasksExtension(this.capabilitiesCache);
    }
    return this.capabilitiesCache;
  }

  listTools(cursor: string | undefined): Listed<ListToolsResult> {
    const page = this.registry.tools.page(cursor, this.options.pageSize);
    return { tools: page.entries.map((entry) => entry.tool), ...this.tail(page.nextCursor) };
  }

  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    context: RequestContext,
  ): Promise<CallToolResult | InputRequired> {
    const entry = this.toolEntry(name);
    if (context.task === undefined && entry.taskSupport === 'required') {
      throw tasksRequiredError();
    }
    const direct = context.task === undefined && entry.beforeTask !== undefined;
    const result = await this.runTool(
      entry,
      args,
      direct
        ? async (valid) =>
            (await entry.beforeTask?.(valid as never, context)) ??
            entry.handler(valid as never, context)
        : (valid) => entry.handler(valid as never, context),
    );
    if (result === undefined) return errorResult(`Tool ${name} returned no valid result`);
    return result;
  }

  taskSupport(name: string): TaskSupport | undefined {
    return this.registry.tools.get(name)?.taskSupport;
  }

  async beforeTask(
    name: string,
    args: Record<string, unknown> | undefined,
    context: RequestContext,
  ): Promise<CallToolResult | InputRequired | undefined> {
    const entry = this.toolEntry(name);
    const { beforeTask } = entry;
    if (beforeTask === undefined) return undefined;
    return this.runTool(entry, args, (valid) => beforeTask(valid as never, context));
  }

  listPrompts(cursor: string | undefined): Listed<ListPromptsResult> {
    const page = this.registry.prompts.page(cursor, this.options.pageSize);
    return { prompts: page.entries.map((entry) => entry.prompt), ...this.tail(page.nextCursor) };
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    context: RequestContext,
  ): Promise<GetPromptResult | InputRequired> {
    const entry = this.registry.prompts.get(name);
    if (entry === undefined) {
      throw new OperationError('not-found', `Unknown prompt: ${name}`, { name });
    }
    const checked = await entry.validate(args ?? {});
    if (!checked.ok) {
      throw new OperationError(
        'invalid',
        `Invalid arguments for prompt ${name}: ${checked.issues.join('; ')}`,
        { issues: checked.issues },
      );
    }
    const result = await runHandler(() => entry.get(checked.value as never, context));
    return result instanceof InputRequired ? result : withoutWireFields(result);
  }

  listResources(cursor: string | undefined): Listed<ListResourcesResult> {
    const page = this.registry.resources.page(cursor, this.options.pageSize);
    const resources = page.entries.map((entry) => entry.resource);
    return { resources, ...this.tail(page.nextCursor) };
  }

  listResourceTemplates(cursor: string | undefined): Listed<ListResourceTemplatesResult> {
    const page = this.registry.templates.page(cursor, this.options.pageSize);
    const resourceTemplates = page.entries.map((entry) => entry.template);
    return { resourceTemplates, ...this.tail(page.nextCursor) };
  }

  /** Static resources first (exact URI), then templates in match order. */
  async readResource(
    uri: string,
    context: RequestContext,
  ): Promise<Listed<ReadResourceResult> | InputRequired> {
    const target = this.resolve(uri, context);
    if (target === undefined) {
      throw new OperationError('not-found', `Resource not found: ${uri}`, { uri });
    }
    const result = await runHandler(target.read);
    if (result instanceof InputRequired) return result;
    return { ...withoutWireFields(result), cache: target.cache ?? this.options.cache };
  }

  async complete(params: CompleteRequestParams, context: RequestContext): Promise<CompleteResult> {
    const completer = this.completerFor(params);
    if (completer === undefined) return { completion: { values: [] } };
    const values = await completer(params.argument.value, {
      arguments: params.context?.arguments ?? {},
      request: context,
    });
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETION_VALUES),
        total: values.length,
        hasMore: values.length > MAX_COMPLETION_VALUES,
      },
    };
  }

  onChange(listener: (change: Change) => void): () => void {
    return this.registry.onChange(listener);
  }

  requiredScopes(target: ScopeTarget): readonly string[] | undefined {
    switch (target.kind) {
      case 'tool':
        return this.registry.tools.get(target.name)?.requiredScopes;
      case 'prompt':
        return this.registry.prompts.get(target.name)?.requiredScopes;
      case 'resourceTemplate':
        return this.registry.templates.get(target.uriTemplate)?.requiredScopes;
      case 'resource': {
        // The same lookup as a read: the static resource, else the first matching template.
        const resource = this.registry.resources.get(target.uri);
        if (resource !== undefined) return resource.requiredScopes;
        if (!URL.canParse(target.uri)) return undefined;
        const template = this.registry
          .templatesInMatchOrder()
          .find((entry) => entry.matcher.match(target.uri) !== undefined);
        return template?.requiredScopes;
      }
    }
  }

  private toolEntry(name: string): ToolEntry {
    const entry = this.registry.tools.get(name);
    if (entry === undefined)
      throw new OperationError('not-found', `Unknown tool: ${name}`, { name });
    return entry;
  }

  /**
   * Validates the arguments and runs `stage` with them; what it returns becomes a result
   * (`undefined` stays `undefined`: nothing returned).
   */
  private runTool(
    entry: ToolEntry,
    args: Record<string, unknown> | undefined,
    stage: (valid: unknown) => ToolReturn | undefined | Promise<ToolReturn | undefined>,
  ): Promise<CallToolResult | InputRequired | undefined> {
    // Most schemas check at once: no promise to wait for before the handler runs.
    const checking = entry.input.validate(args ?? {});
    return checking instanceof Promise
      ? checking.then((checked) => this.runChecked(entry, checked, stage))
      : this.runChecked(entry, checking, stage);
  }

  private async runChecked(
    entry: ToolEntry,
    checked: ValidationResult,
    stage: (valid: unknown) => ToolReturn | undefined | Promise<ToolReturn | undefined>,
  ): Promise<CallToolResult | InputRequired | undefined> {
    const name = entry.tool.name;
    if (!checked.ok) {
      return errorResult(`Invalid arguments for tool ${name}: ${checked.issues.join('; ')}`);
    }
    let returned: ToolReturn | undefined;
    try {
      returned = await stage(checked.value);
    } catch (error) {
      if (error instanceof InputRequired) return error;
      // A protocol error is deliberate (e.g. a missing client capability): it stays one.
      if (error instanceof ProtocolError) throw error;
      return errorResult(messageOf(error));
    }
    if (returned === undefined || returned instanceof InputRequired) return returned;
    const result = toCallToolResult(returned);
    if (result === undefined) return errorResult(`Tool ${name} returned no valid result`);
    return checkOutput(entry, result);
  }

  private resolve(uri: string, context: RequestContext): ReadTarget | undefined {
    if (!URL.canParse(uri)) return undefined;
    const resource = this.registry.resources.get(uri);
    if (resource !== undefined) {
      return { read: () => resource.read(new URL(uri), context), cache: resource.cache };
    }
    for (const template of this.registry.templatesInMatchOrder()) {
      const variables = template.matcher.match(uri);
      if (variables === undefined) continue;
      return { read: () => template.read(new URL(uri), variables, context), cache: template.cache };
    }
    return undefined;
  }

  /** The completion function a reference names; `undefined` when it has none for the argument. */
  private completerFor({ ref, argument }: CompleteRequestParams): Completer | undefined {
    if (ref.type === 'ref/prompt') {
      const prompt = this.registry.prompts.get(ref.name);
      if (prompt === undefined) {
        throw new OperationError('not-found', `Unknown prompt: ${ref.name}`, { ref });
      }
      return prompt.complete[argument.name];
    }
    const template = this.registry.templates.get(ref.uri);
    if (template !== undefined) return template.complete[argument.name];
    if (this.registry.resources.get(ref.uri) !== undefined) return undefined;
    throw new OperationError('not-found', `Unknown resource or template: ${ref.uri}`, { ref });
  }

  private tail(nextCursor: string | undefined): { nextCursor?: string; cache: CachePolicy } {
    return nextCursor === undefined
      ? { cache: this.options.cache }
      : { nextCursor, cache: this.options.cache };
  }
}
