/**
 * A small, real `Operations` for the dispatcher tests: a fixed set of tools, one resource, one
 * template, one prompt, sorted lists with numeric-offset cursors, argument checks, change
 * events. It stands in for the registry so the dispatchers can be tested on their own.
 */
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  ServerCapabilities,
} from '@twofold/protocol/experimental';
import { type CachePolicy, InputRequired, type RequestContext } from '../../src/api';
import {
  type Change,
  type Listed,
  OperationError,
  type Operations,
} from '../../src/operations/types';

type ToolFn = (
  args: Record<string, unknown>,
  context: RequestContext,
) => Promise<CallToolResult | InputRequired>;

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Resolves when `signal` aborts (a handler that never returns on its own). */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export class TestOperations implements Operations {
  readonly aborted: string[] = [];
  private readonly listeners = new Set<(change: Change) => void>();
  private readonly tools = new Map<string, ToolFn>([
    [
      'echo',
      async (args, context) => {
        if (typeof args.text !== 'string') {
          return { ...text('text must be a string'), isError: true };
        }
        await context.progress(1, 2, 'half');
        await context.log('info', { echo: args.text }, 'echo');
        await context.log('debug', 'verbose detail');
        await context.progress(2, 2);
        return text(args.text);
      },
    ],
    [
      'hang',
      async (_args, context) => {
        await untilAborted(context.signal);
        this.aborted.push(String(context.requestId));
        return text('stopped');
      },
    ],
    [
      'ask',
      async (_args, context) => {
        const answer = context.inputResponses?.name as
          | { action?: string; content?: { name?: string } }
          | undefined;
        if (answer === undefined) {
          return new InputRequired({
            name: {
              method: 'elicitation/create',
              params: {
                message: 'Your name?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
              },
            },
          });
        }
        return text(`hello ${answer.content?.name ?? answer.action}`);
      },
    ],
    [
      'boom',
      async () => {
        throw new Error('secret internal detail');
      },
    ],
  ]);
  private disabled = new Set<string>();

  constructor(
    private readonly cache: CachePolicy,
    private readonly pageSize = 100,
  ) {}

  capabilities(): ServerCapabilities {
    return {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
    };
  }

  /** Hides or shows a tool and announces the change, as the registry does. */
  setToolEnabled(name: string, enabled: boolean): void {
    if (enabled) this.disabled.delete(name);
    else this.disabled.add(name);
    this.emit({ kind: 'tools' });
  }

  emit(change: Change): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  listTools(cursor: string | undefined) {
    const names = [...this.tools.keys()].filter((n) => !this.disabled.has(n)).sort();
    const { items, nextCursor } = this.page(names, cursor);
    return this.listed({
      tools: items.map((name) => ({
        name,
        inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } },
      })),
      ...(nextCursor === undefined ? {} : { nextCursor }),
    });
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, context: RequestContext) {
    const tool = this.disabled.has(name) ? undefined : this.tools.get(name);
    if (tool === undefined)
      throw new OperationError('not-found', `Unknown tool: ${name}`, { name });
    try {
      return await tool(args ?? {}, context);
    } catch (error) {
      if (error instanceof InputRequired) return error;
      return { ...text(error instanceof Error ? error.message : String(error)), isError: true };
    }
  }

  listPrompts(cursor: string | undefined) {
    const { items } = this.page(['greet'], cursor);
    return this.listed({
      prompts: items.map((name) => ({ name, arguments: [{ name: 'name', required: true }] })),
    });
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
  ): Promise<GetPromptResult> {
    if (name !== 'greet')
      throw new OperationError('not-found', `Unknown prompt: ${name}`, { name });
    if (args?.name === undefined) throw new OperationError('invalid', 'Missing argument: name');
    return { messages: [{ role: 'user', content: { type: 'text', text: `Greet ${args.name}` } }] };
  }

  listResources(cursor: string | undefined) {
    const { items } = this.page(['test://static'], cursor);
    return this.listed({ resources: items.map((uri) => ({ uri, name: 'static' })) });
  }

  listResourceTemplates(cursor: string | undefined) {
    const { items } = this.page(['test://items/{id}'], cursor);
    return this.listed({
      resourceTemplates: items.map((uriTemplate) => ({ uriTemplate, name: 'item' })),
    });
  }

  async readResource(uri: string): Promise<Listed<{ contents: { uri: string; text: string }[] }>> {
    if (uri === 'test://static')
      return { contents: [{ uri, text: 'static text' }], cache: this.cache };
    const item = /^test:\/\/items\/(\w+)$/.exec(uri);
    if (item) return { contents: [{ uri, text: `item ${item[1]}` }], cache: this.cache };
    throw new OperationError('not-found', `Resource not found: ${uri}`, { uri });
  }

  async complete(params: CompleteRequestParams): Promise<CompleteResult> {
    const values = ['alice', 'bob'].filter((v) => v.startsWith(params.argument.value));
    return { completion: { values, total: values.length, hasMore: false } };
  }

  onChange(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private listed<T extends object>(result: T): T & { cache: CachePolicy } {
    return { ...result, cache: this.cache };
  }

  private page<T>(items: T[], cursor: string | undefined): { items: T[]; nextCursor?: string } {
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start > items.length) {
      throw new OperationError('invalid', `Invalid cursor: ${cursor}`);
    }
    const end = start + this.pageSize;
    return end < items.length
      ? { items: items.slice(start, end), nextCursor: String(end) }
      : { items: items.slice(start) };
  }
}
