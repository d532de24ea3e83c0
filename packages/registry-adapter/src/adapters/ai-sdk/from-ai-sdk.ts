/**
 * AI SDK tools (`ai` 7) as host tools: the input schema as JSON Schema (zod 4 and Standard
 * Schema through `convertSchema`, anything else through the SDK's own `asSchema`), arguments
 * validated the way the SDK does before `execute`, and the output (or `toModelOutput`) as an MCP
 * result.
 */
import type { CallToolResult, ContentBlock } from '@twofold/protocol/experimental';
import { asSchema, type Tool } from 'ai';
import type { HostTool, InvokeContext, JsonSchema } from '../../registry/types';
import type { SchemaLoss } from '../../schema/reports';
import { isAbortOf } from '../shared/invoke';
import { errorMessage, errorResult, valueToResult } from '../shared/results';
import { foreignSchema } from '../shared/schemas';
import type { AiSdkModelOutput } from './to-ai-sdk';

/**
 * Options of `fromAiSdkTools`.
 *
 * @experimental
 */
export interface FromAiSdkToolsOptions {
  /** Told about every tool left out (provider tools, tools without `execute`, async schemas). */
  onSkipped?: (name: string, reason: string) => void;
  /** Told what each converted schema lost (zod transforms, refinements, dates…). */
  onLosses?: (name: string, losses: SchemaLoss[]) => void;
}

let callCount = 0;

/**
 * Converts an AI SDK tool set into host tools, in the record's order. Tools the host cannot run
 * are left out and reported to `onSkipped`: provider-defined and provider-executed tools, tools
 * without `execute`, and tools whose JSON Schema is only available asynchronously.
 *
 * `invoke` validates the arguments with the tool's schema (zod defaults and transforms apply;
 * invalid arguments give an `isError` result naming the issues), runs `execute` (the last value
 * of a streaming tool counts) with the call's signal, and maps the output: through the tool's
 * `toModelOutput` when it has one, else a string as text and an object as JSON text plus
 * `structuredContent`. A throw becomes an `isError` result; an abort rejects.
 *
 * @experimental
 */
export function fromAiSdkTools(
  tools: Readonly<Record<string, Tool>>,
  options: FromAiSdkToolsOptions = {},
): HostTool[] {
  const hostTools: HostTool[] = [];
  for (const [name, aiTool] of Object.entries(tools)) {
    const skip = (reason: string) => options.onSkipped?.(name, reason);
    if (aiTool.type === 'provider') {
      skip('a provider-defined tool (the provider or the SDK runs it)');
      continue;
    }
    const execute = aiTool.execute;
    if (!execute) {
      skip('no execute function');
      continue;
    }
    const input = schemaOf(aiTool.inputSchema, 'input', name);
    if (!input) {
      skip('its input schema gives JSON Schema only asynchronously');
      continue;
    }
    const output =
      aiTool.outputSchema === undefined ? undefined : schemaOf(aiTool.outputSchema, 'output', name);
    const losses = [...input.losses, ...(output?.losses ?? [])];
    if (losses.length > 0) options.onLosses?.(name, losses);
    const description = typeof aiTool.description === 'string' ? aiTool.description : undefined;
    const validator = asSchema(aiTool.inputSchema);
    const toModelOutput = aiTool.toModelOutput;

    const invoke = async (
      args: Record<string, unknown>,
      context: InvokeContext,
    ): Promise<CallToolResult> => {
      const checked = validator.validate
        ? await validator.validate(args)
        : { success: true as const, value: args };
      if (!checked.success) {
        return errorResult(`invalid arguments for tool "${name}": ${errorMessage(checked.error)}`);
      }
      const toolCallId = `twofold-${++callCount}`;
      try {
        let value: unknown = await Promise.resolve(
          execute(checked.value, {
            toolCallId,
            messages: [],
            abortSignal: context.signal,
            context: {},
          }),
        );
        if (isAsyncIterable(value)) value = await lastOf(value, context.signal);
        if (!toModelOutput) return valueToResult(value);
        const result = modelOutputToResult(
          await toModelOutput({ toolCallId, input: checked.value, output: value }),
        );
        // A declared output schema describes the raw output: keep it as structured content.
        const structured = output && !result.isError && result.structuredContent === undefined;
        if (!structured || typeof value !== 'object' || value === null || Array.isArray(value)) {
          return result;
        }
        return { ...result, structuredContent: value as Record<string, unknown> };
      } catch (error) {
        if (isAbortOf(error, context.signal)) throw error;
        return errorResult(errorMessage(error));
      }
    };
    hostTools.push({
      name,
      ...(description === undefined ? {} : { description }),
      inputSchema: input.jsonSchema,
      ...(output ? { outputSchema: output.jsonSchema } : {}),
      invoke,
    });
  }
  return hostTools;
}

const SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** `jsonSchema()` / lazy schemas through the SDK; zod 4 and Standard Schema converted by us. */
function schemaOf(input: unknown, io: 'input' | 'output', name: string) {
  const sdkOwn =
    typeof input === 'function' ||
    (typeof input === 'object' && input !== null && SDK_SCHEMA in input);
  if (!sdkOwn) return foreignSchema(input, io, name, sdkJsonSchema);
  const jsonSchema = sdkJsonSchema(input);
  return jsonSchema === undefined ? undefined : { jsonSchema, losses: [] };
}

/** The SDK's own JSON Schema of a schema it understands (zod 3, `jsonSchema()`, lazy schemas). */
function sdkJsonSchema(input: unknown): JsonSchema | undefined {
  const schema = asSchema(input as Parameters<typeof asSchema>[0]).jsonSchema;
  if (typeof (schema as PromiseLike<unknown>).then === 'function') return undefined;
  return schema as JsonSchema;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function lastOf(values: AsyncIterable<unknown>, signal: AbortSignal): Promise<unknown> {
  let last: unknown;
  for await (const value of values) {
    signal.throwIfAborted();
    last = value;
  }
  return last;
}

/**
 * What an AI SDK tool told the model (`toModelOutput`), as an MCP result: text as text, JSON as
 * JSON text plus `structuredContent`, error and denial outputs as `isError`, image and audio
 * parts as blocks.
 *
 * @experimental
 */
export function modelOutputToResult(output: AiSdkModelOutput): CallToolResult {
  switch (output.type) {
    case 'text':
      return { content: [{ type: 'text', text: output.value }] };
    case 'json':
      return valueToResult(output.value);
    case 'error-text':
      return errorResult(output.value);
    case 'error-json':
      return errorResult(JSON.stringify(output.value));
    case 'execution-denied':
      return errorResult(`execution denied${output.reason ? `: ${output.reason}` : ''}`);
    case 'content':
      return { content: output.value.map(contentPartToBlock) };
    default:
      return valueToResult(output);
  }
}

type ContentPart = Extract<AiSdkModelOutput, { type: 'content' }>['value'][number];

function contentPartToBlock(part: ContentPart): ContentBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'file' && part.data.type === 'data' && typeof part.data.data === 'string') {
    const kind = part.mediaType.startsWith('audio') ? 'audio' : 'image';
    if (part.mediaType.startsWith('image') || kind === 'audio') {
      return { type: kind, data: part.data.data, mimeType: part.mediaType };
    }
  }
  if (part.type === 'file-data' && part.mediaType.startsWith('image')) {
    return { type: 'image', data: part.data, mimeType: part.mediaType };
  }
  return { type: 'text', text: JSON.stringify(part) };
}
