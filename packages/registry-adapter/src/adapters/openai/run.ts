/**
 * Running the tool calls an OpenAI model made against a registry, and answering them in the
 * shape the next request needs: a Chat Completions `tool` message or a Responses
 * `function_call_output` item.
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import type {
  ChatCompletionMessageToolCall,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type {
  ResponseFunctionCallOutputItem,
  ResponseFunctionToolCall,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { HostTool, InvokeContext, ToolRegistry } from '../../registry/types';
import { type AdapterInvokeOptions, runHostTool, toolsOf } from '../shared/invoke';
import { errorMessage, errorResult, resultText } from '../shared/results';
import { dropStrictNulls } from './definitions';

/**
 * Options of `runOpenAiToolCall`.
 *
 * @experimental
 */
export interface RunOpenAiToolCallOptions extends AdapterInvokeOptions {
  signal?: AbortSignal;
  /** Finishes a call that threw `ToolInputRequiredError`: its answers and its `state`. */
  resume?: InvokeContext['resume'];
  /**
   * Remove the `null`s strict mode makes the model send for optional properties that do not
   * accept null (see `dropStrictNulls`). Default true; harmless for non-strict tools.
   */
  dropStrictNulls?: boolean;
}

/**
 * Runs one tool call of a Chat Completions response (`message.tool_calls[i]`) and returns
 * the `tool` message to append to the conversation; or one `function_call` output item of a
 * Responses response and returns its `function_call_output` input item.
 *
 * What the model reads: the result's text (images and audio as placeholders in Chat; images as
 * `input_image` items in Responses). Failures the model can act on become text it reads, with an
 * `Error: ` prefix: an `isError` result, an unknown tool, arguments that are not a JSON object.
 * A tool that needs input no resolver answered throws `ToolInputRequiredError`: answer it and
 * run the same call again with `resume`. Rejections of the tool (transport, abort) pass through.
 *
 * @experimental
 */
export function runOpenAiToolCall(
  tools: ToolRegistry | Iterable<HostTool>,
  call: ChatCompletionMessageToolCall,
  options?: RunOpenAiToolCallOptions,
): Promise<ChatCompletionToolMessageParam>;
export function runOpenAiToolCall(
  tools: ToolRegistry | Iterable<HostTool>,
  call: ResponseFunctionToolCall,
  options?: RunOpenAiToolCallOptions,
): Promise<ResponseInputItem.FunctionCallOutput>;
export async function runOpenAiToolCall(
  tools: ToolRegistry | Iterable<HostTool>,
  call: ChatCompletionMessageToolCall | ResponseFunctionToolCall,
  options: RunOpenAiToolCallOptions = {},
): Promise<ChatCompletionToolMessageParam | ResponseInputItem.FunctionCallOutput> {
  if (call.type === 'function_call') {
    const result = await runCall(tools, call.name, call.arguments, options);
    return { type: 'function_call_output', call_id: call.call_id, output: responsesOutput(result) };
  }
  const result =
    call.type === 'function'
      ? await runCall(tools, call.function.name, call.function.arguments, options)
      : errorResult(`"${call.custom.name}" is a custom tool call, not a function call`);
  return { role: 'tool', tool_call_id: call.id, content: chatText(result) };
}

function findTool(tools: ToolRegistry | Iterable<HostTool>, name: string): HostTool | undefined {
  if (!(Symbol.iterator in tools)) return (tools as ToolRegistry).get(name);
  return toolsOf(tools).find((tool) => tool.name === name);
}

async function runCall(
  tools: ToolRegistry | Iterable<HostTool>,
  name: string,
  rawArgs: string,
  options: RunOpenAiToolCallOptions,
): Promise<CallToolResult> {
  const tool = findTool(tools, name);
  if (!tool) return errorResult(`unknown tool "${name}"`);
  let args: unknown;
  try {
    args = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
  } catch (error) {
    return errorResult(
      `the arguments of tool "${name}" are not valid JSON: ${errorMessage(error)}`,
    );
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return errorResult(`the arguments of tool "${name}" must be a JSON object`);
  }
  let checked = args as Record<string, unknown>;
  if (options.dropStrictNulls !== false) checked = dropStrictNulls(checked, tool.inputSchema);
  return runHostTool(tool, checked, options.signal, options);
}

function chatText(result: CallToolResult): string {
  const text = resultText(result);
  return result.isError ? `Error: ${text}` : text;
}

function responsesOutput(result: CallToolResult): string | ResponseFunctionCallOutputItem[] {
  const content = result.content ?? [];
  if (result.isError || !content.some((block) => block.type === 'image')) return chatText(result);
  return content.map((block) =>
    block.type === 'image'
      ? { type: 'input_image', image_url: `data:${block.mimeType};base64,${block.data}` }
      : { type: 'input_text', text: resultText({ content: [block] }) },
  );
}
