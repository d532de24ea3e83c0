/**
 * The SEP-2243 header scenarios (2026-07-28). `http-standard-headers`: use every kind of
 * request that names something, so the suite sees `Mcp-Method` and `Mcp-Name` on each.
 * `http-custom-headers`: call the tools the suite names in its context; the client mirrors
 * `x-mcp-header` arguments as `Mcp-Param-*` headers. `http-invalid-tool-headers`: call every
 * tool the client kept; tools with invalid annotations must have been left out of the list.
 */
import type { Tool } from '@twofold/protocol/experimental';
import { collect, type ScenarioRun, textOf, withClient } from '../run';

export async function standardHeaders(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    for (const tool of await collect(client.iterateTools())) {
      run.log(`${tool.name}: ${textOf(await client.callTool(tool.name, sampleArguments(tool)))}`);
    }
    for (const resource of await collect(client.iterateResources())) {
      const { contents } = await client.readResource(resource.uri);
      run.log(`${resource.uri}: ${contents.length} content(s)`);
    }
    for (const prompt of await collect(client.iteratePrompts())) {
      const { messages } = await client.getPrompt(prompt.name);
      run.log(`${prompt.name}: ${messages.length} message(s)`);
    }
  });
}

export async function customHeaders(run: ScenarioRun): Promise<void> {
  const calls = toolCallsOf(run.context);
  if (calls.length === 0) throw new Error('MCP_CONFORMANCE_CONTEXT names no toolCalls');
  await withClient(run, {}, async (client) => {
    // Listing first: the catalog is where the client learns each tool's header parameters.
    await collect(client.iterateTools());
    for (const call of calls) {
      run.log(`${call.name}: ${textOf(await client.callTool(call.name, call.arguments))}`);
    }
  });
}

export async function invalidToolHeaders(run: ScenarioRun): Promise<void> {
  await withClient(run, {}, async (client) => {
    const tools = await collect(client.iterateTools());
    run.log(`kept: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
    for (const tool of tools) {
      run.log(`${tool.name}: ${textOf(await client.callTool(tool.name, sampleArguments(tool)))}`);
    }
  });
}

/** A value of the right primitive type for each required property (enough to call a tool). */
export function sampleArguments(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as {
    properties?: Record<string, { type?: unknown }>;
    required?: unknown;
  };
  const required = Array.isArray(schema.required) ? schema.required : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    if (typeof name !== 'string') continue;
    const type = schema.properties?.[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : 'sample';
  }
  return args;
}

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

function toolCallsOf(context: Record<string, unknown>): ToolCall[] {
  const calls = Array.isArray(context.toolCalls) ? context.toolCalls : [];
  return calls.filter(
    (call): call is ToolCall =>
      typeof call?.name === 'string' &&
      typeof call.arguments === 'object' &&
      call.arguments !== null,
  );
}
