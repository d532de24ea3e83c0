/**
 * Publishing a host's `ToolRegistry` as a twofold `McpServer`: every tool registered once (its
 * JSON Schemas go in as they are), calls forwarded to `invoke`, input-required outcomes carried
 * across as `InputRequired` rounds, and registry changes mirrored, which makes the server send
 * list-changed notifications to modern listeners and legacy sessions alike.
 */
import {
  InputRequired,
  McpServer,
  type McpServerOptions,
  type Registered,
  type RequestContext,
  type ToolReturn,
} from '@twofold/server/experimental';
import { compareNames } from '../registry/order';
import type {
  HostTool,
  InputRequiredOutcome,
  InvokeContext,
  ToolOutcome,
  ToolRegistry,
} from '../registry/types';
import { lossesOf } from './function-tool';
import type { ConversionReport, ToolConversion } from './report';

/**
 * Options of `serverFromRegistry`.
 *
 * @experimental
 */
export interface RegistryServerOptions {
  /** A server to build (its options) or an existing one to register the tools on. */
  server: McpServerOptions | McpServer;
}

/**
 * An exported registry. `report` is live: it follows the registry's changes.
 *
 * @experimental
 */
export interface RegistryServer {
  readonly server: McpServer;
  readonly report: ConversionReport;
  /** Stops following the registry and removes the tools it registered on the server. */
  close(): void;
}

const KEEPALIVE = '_twofold_registry_keepalive';

function invokeContext(context: RequestContext): InvokeContext {
  return {
    signal: context.signal,
    onProgress: (progress) => {
      // A progress value that does not grow is the tool's mistake, not the call's.
      context.progress(progress.progress, progress.total, progress.message).catch(() => undefined);
    },
    ...(context.inputResponses === undefined
      ? {}
      : { resume: { inputResponses: { ...context.inputResponses }, state: context.state } }),
  };
}

function isInputRequired(outcome: ToolOutcome): outcome is InputRequiredOutcome {
  return (outcome as { resultType?: unknown }).resultType === 'input_required';
}

async function callTool(
  tool: HostTool,
  args: Record<string, unknown>,
  context: RequestContext,
): Promise<ToolReturn> {
  const outcome = await tool.invoke(args, invokeContext(context));
  if (isInputRequired(outcome)) return new InputRequired(outcome.inputRequests, outcome.state);
  return outcome;
}

/**
 * Serves every tool of `registry` from a `@twofold/server` `McpServer` (built from the given
 * options, or the given server), registered in name order; the server lists them by name. A tool
 * the server refuses (an invalid MCP name, a schema it cannot use) is skipped and reported, the
 * others are served. When the registry can be watched, tools registered or unregistered later
 * are added or removed at once, and the server announces each change (`notifications/tools/
 * list_changed` to legacy sessions, `subscriptions/listen` to modern listeners).
 *
 * @experimental
 */
export function serverFromRegistry(
  registry: ToolRegistry,
  options: RegistryServerOptions,
): RegistryServer {
  const server =
    options.server instanceof McpServer ? options.server : new McpServer(options.server);
  const served = new Map<string, { tool: HostTool; handle: Registered }>();
  const entries = new Map<string, ToolConversion>();

  // McpServer declares `tools` only once a tool is registered (enabled or not): a disabled
  // placeholder keeps it declared while the registry is empty, so clients can list and listen.
  let keepalive: Registered | undefined;
  const holdCapability = (): void => {
    if (keepalive !== undefined || served.has(KEEPALIVE)) return;
    try {
      keepalive = server.registerTool({ name: KEEPALIVE, handler: () => '' });
      keepalive.disable();
    } catch {
      // The server already has a tool by that name: the capability is held anyway.
    }
  };
  const remove = (name: string): void => {
    served.get(name)?.handle.remove();
    served.delete(name);
    entries.delete(name);
    if (name === KEEPALIVE && !closed) holdCapability();
  };
  const add = (tool: HostTool): void => {
    if (served.get(tool.name)?.tool === tool) return;
    remove(tool.name);
    if (tool.name === KEEPALIVE) {
      keepalive?.remove();
      keepalive = undefined;
    }
    const losses = lossesOf(tool);
    try {
      const handle = server.registerTool({
        name: tool.name,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        handler: (args: Record<string, unknown>, context: RequestContext) =>
          callTool(tool, args, context),
      });
      served.set(tool.name, { tool, handle });
      entries.set(tool.name, { name: tool.name, losses });
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      entries.set(tool.name, { name: tool.name, losses, skipped: error.message });
    }
  };

  let closed = false;
  holdCapability();
  for (const tool of [...registry.list()].sort((a, b) => compareNames(a.name, b.name))) add(tool);
  const unwatch = registry.watch?.((change) => {
    if (change.type === 'unregistered') {
      remove(change.name);
      return;
    }
    const tool = registry.get(change.name);
    if (tool !== undefined) add(tool);
  });

  const report: ConversionReport = {
    get tools() {
      return [...entries.values()].sort((a, b) => compareNames(a.name, b.name));
    },
  };
  return {
    server,
    report,
    close: () => {
      if (closed) return;
      closed = true;
      unwatch?.();
      for (const name of [...served.keys()]) remove(name);
      keepalive?.remove();
    },
  };
}
