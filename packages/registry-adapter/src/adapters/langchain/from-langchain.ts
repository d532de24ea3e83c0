/**
 * LangChain.js structured tools as host tools: the schema as JSON Schema (zod 4 and Standard
 * Schema through `convertSchema`, zod 3 through LangChain's own converter), each call made as a
 * tool call so the `ToolMessage` (content, status, artifact) becomes the MCP result.
 */
import { isToolMessage, type ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { CallToolResult, ContentBlock } from '@twofold/protocol/experimental';
import type { HostTool, InvokeContext, JsonSchema } from '../../registry/types';
import type { SchemaLoss } from '../../schema/reports';
import { isAbortOf } from '../shared/invoke';
import { errorMessage, errorResult, isCallToolResult, valueToResult } from '../shared/results';
import { foreignSchema } from '../shared/schemas';

/**
 * Options of `fromLangChainTools`.
 *
 * @experimental
 */
export interface FromLangChainToolsOptions {
  /** Told what each converted schema lost (zod transforms, refinements, dates…). */
  onLosses?: (name: string, losses: SchemaLoss[]) => void;
}

let callCount = 0;

/**
 * Converts LangChain structured tools into host tools, in the given order.
 *
 * `invoke` calls `tool.invoke` with a tool call and the call's signal (LangChain validates the
 * arguments). The answer becomes the result: an MCP result carried as the artifact (a tool made
 * by `toLangChainTools`) is used as it is; otherwise the message content becomes text (and
 * base64 image/audio blocks), with `isError` when the message's status is `error`. A throw
 * (including LangChain's argument-parsing error) becomes an `isError` result; an abort rejects.
 *
 * @experimental
 */
export function fromLangChainTools(
  tools: readonly StructuredToolInterface[],
  options: FromLangChainToolsOptions = {},
): HostTool[] {
  return tools.map((lcTool) => {
    const converted = foreignSchema(lcTool.schema, 'input', lcTool.name, langChainJsonSchema);
    // LangChain's converter understands every schema a tool accepts.
    const input = converted ?? { jsonSchema: langChainJsonSchema(lcTool.schema), losses: [] };
    if (input.losses.length > 0) options.onLosses?.(lcTool.name, input.losses);
    const invoke = async (
      args: Record<string, unknown>,
      context: InvokeContext,
    ): Promise<CallToolResult> => {
      const id = `twofold-${++callCount}`;
      try {
        const output: unknown = await lcTool.invoke(
          { type: 'tool_call', id, name: lcTool.name, args },
          { signal: context.signal },
        );
        return isToolMessage(output as never)
          ? messageToResult(output as ToolMessage)
          : valueToResult(output);
      } catch (error) {
        if (isAbortOf(error, context.signal)) throw error;
        return errorResult(errorMessage(error));
      }
    };
    return {
      name: lcTool.name,
      ...(lcTool.description ? { description: lcTool.description } : {}),
      inputSchema: input.jsonSchema,
      invoke,
    };
  });
}

function langChainJsonSchema(schema: unknown): JsonSchema {
  return toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]) as JsonSchema;
}

/** A tool's `ToolMessage` as an MCP result. */
function messageToResult(message: ToolMessage): CallToolResult {
  if (isCallToolResult(message.artifact)) return message.artifact;
  const content = message.content;
  const blocks: ContentBlock[] =
    typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : content.map((part) => partToBlock(part as Record<string, unknown>));
  return message.status === 'error' ? { content: blocks, isError: true } : { content: blocks };
}

function partToBlock(part: Record<string, unknown>): ContentBlock {
  if (part.type === 'text' && typeof part.text === 'string')
    return { type: 'text', text: part.text };
  if (
    (part.type === 'image' || part.type === 'audio') &&
    typeof part.data === 'string' &&
    typeof part.mimeType === 'string'
  ) {
    return { type: part.type, data: part.data, mimeType: part.mimeType };
  }
  return { type: 'text', text: JSON.stringify(part) };
}
