/**
 * Host tools as Vercel AI SDK tools (`ai` 7): `tool()` over `jsonSchema()` of the tool's own
 * input schema, `execute` calling `invoke` with the SDK's abort signal, and `toModelOutput`
 * turning the MCP result into what the model reads.
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import { type JSONSchema7, jsonSchema, type Tool, tool } from 'ai';
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
 * Options of `toAiSdkTools`.
 *
 * @experimental
 */
export interface ToAiSdkToolsOptions extends AdapterInvokeOptions {}

/**
 * What the model reads back from a tool (the AI SDK's `ToolResultOutput`).
 *
 * @experimental
 */
export type AiSdkModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * Converts host tools into an AI SDK tool set keyed by tool name, ready for `generateText` /
 * `streamText`.
 *
 * - The input schema goes to the model as it is (`jsonSchema(tool.inputSchema)`); the SDK does
 *   not validate it (the tool, e.g. its MCP server, does).
 * - `execute` resolves with the MCP `CallToolResult` (the step's tool output); `toModelOutput`
 *   gives the model its text (`isError` results as `error-text`, images and audio as file parts,
 *   structured-only results as JSON).
 * - A tool that needs input nobody answered (no `resolver`) throws `ToolInputRequiredError`; the
 *   SDK reports it as a tool error (the model sees its message) and the host finds the error,
 *   with the requests and the state to resume, on the step's `tool-error` part.
 * - `metadata` names the MCP origin (server and tool) of imported tools; it is not sent to the
 *   model.
 *
 * @experimental
 */
export function toAiSdkTools(
  source: ToolSource,
  options: ToAiSdkToolsOptions = {},
): Record<string, Tool<unknown, CallToolResult>> {
  const tools: Record<string, Tool<unknown, CallToolResult>> = {};
  for (const hostTool of toolsOf(source)) tools[hostTool.name] = toAiSdkTool(hostTool, options);
  return tools;
}

/**
 * One host tool as an AI SDK tool (see `toAiSdkTools`).
 *
 * @experimental
 */
export function toAiSdkTool(
  hostTool: HostTool,
  options: ToAiSdkToolsOptions = {},
): Tool<unknown, CallToolResult> {
  const description = hostTool.description ?? hostTool.title;
  const origin = hostTool.origin;
  return tool<unknown, CallToolResult, Record<string, unknown>>({
    ...(description === undefined ? {} : { description }),
    ...(origin ? { metadata: { mcpServer: origin.server, mcpTool: origin.tool } } : {}),
    // The tool's own schema object (the cast only bridges to the SDK's JSON Schema 7 type).
    inputSchema: jsonSchema<unknown>(hostTool.inputSchema as unknown as JSONSchema7),
    execute: (input, execution) =>
      runHostTool(hostTool, argsObject(input), execution.abortSignal, options),
    toModelOutput: ({ output }) => modelOutput(output),
  });
}

/**
 * What the model reads for an MCP result (the `toModelOutput` of `toAiSdkTools`).
 *
 * @experimental
 */
export function modelOutput(result: CallToolResult): AiSdkModelOutput {
  if (result.isError) return { type: 'error-text', value: resultText(result) };
  const content = result.content ?? [];
  if (content.length === 0 && result.structuredContent !== undefined) {
    return { type: 'json', value: result.structuredContent as never };
  }
  if (!content.some((block) => block.type === 'image' || block.type === 'audio')) {
    return { type: 'text', value: resultText(result) };
  }
  return {
    type: 'content',
    value: content.map((block) =>
      block.type === 'image' || block.type === 'audio'
        ? { type: 'file', mediaType: block.mimeType, data: { type: 'data', data: block.data } }
        : { type: 'text', text: resultText({ content: [block] }) },
    ),
  };
}
