/**
 * Host tools as LangChain.js structured tools (`@langchain/core` 1.x): a `DynamicStructuredTool`
 * over the tool's JSON Schema, called with the run's abort signal, answering a tool call with a
 * `ToolMessage` that carries the MCP result as its artifact.
 */
import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { CallToolResult } from '@twofold/protocol/experimental';
import type { HostTool } from '../../registry/types';
import {
  type AdapterInvokeOptions,
  argsObject,
  runHostTool,
  type ToolSource,
  toolsOf,
} from '../shared/invoke';
import { resultText } from '../shared/results';

/**
 * Options of `toLangChainTools`.
 *
 * @experimental
 */
export interface ToLangChainToolsOptions extends AdapterInvokeOptions {}

/**
 * What a converted tool returns outside a tool call: the result's text, or standard content
 * blocks when it has images or audio.
 *
 * @experimental
 */
export type LangChainToolContent =
  | string
  | (
      | { type: 'text'; text: string }
      | { type: 'image' | 'audio'; mimeType: string; data: string }
    )[];

/**
 * Converts host tools into LangChain `DynamicStructuredTool`s, in the source's order.
 *
 * - `schema` is the tool's JSON Schema (LangChain checks arguments against it before the call).
 * - Invoked with a tool call (`tool.invoke(toolCall)`, as agents do), a tool answers with a
 *   `ToolMessage`: `content` is what the model reads (text, or standard image/audio blocks),
 *   `artifact` the whole MCP `CallToolResult`, and `status` is `error` for an `isError` result,
 *   so the model sees the failure without the run failing.
 * - Invoked with plain arguments, it returns the content only (an `isError` result's text too).
 * - The run's `signal` aborts the call; a tool that needs input no `resolver` answered throws
 *   `ToolInputRequiredError` (with the requests and the state to resume).
 * - `metadata` carries the MCP origin (`mcpServer`, `mcpTool`) and annotations when present.
 *
 * @experimental
 */
export function toLangChainTools(
  source: ToolSource,
  options: ToLangChainToolsOptions = {},
): DynamicStructuredTool[] {
  return toolsOf(source).map((tool) => toLangChainTool(tool, options));
}

/**
 * One host tool as a LangChain structured tool (see `toLangChainTools`).
 *
 * @experimental
 */
export function toLangChainTool(
  tool: HostTool,
  options: ToLangChainToolsOptions = {},
): DynamicStructuredTool {
  const metadata: Record<string, unknown> = {};
  if (tool.origin) {
    metadata.mcpServer = tool.origin.server;
    metadata.mcpTool = tool.origin.tool;
  }
  if (tool.annotations) metadata.annotations = tool.annotations;
  return new DynamicStructuredTool({
    name: tool.name,
    description: tool.description ?? tool.title ?? '',
    schema: tool.inputSchema as Record<string, unknown>,
    metadata,
    func: async (input: unknown, _runManager, config?: ToolRunnableConfig) => {
      const result = await runHostTool(tool, argsObject(input), config?.signal, options);
      const content = langChainContent(result);
      const toolCallId = config?.toolCall?.id;
      if (toolCallId === undefined) return content;
      return new ToolMessage({
        content,
        artifact: result,
        tool_call_id: toolCallId,
        name: tool.name,
        status: result.isError ? 'error' : 'success',
      });
    },
  });
}

/**
 * What the model reads of an MCP result (the content of `toLangChainTools`' answers).
 *
 * @experimental
 */
export function langChainContent(result: CallToolResult): LangChainToolContent {
  const content = result.content ?? [];
  if (result.isError || !content.some((b) => b.type === 'image' || b.type === 'audio')) {
    return resultText(result);
  }
  return content.map((block) =>
    block.type === 'image' || block.type === 'audio'
      ? { type: block.type, mimeType: block.mimeType, data: block.data }
      : { type: 'text', text: resultText({ content: [block] }) },
  );
}
