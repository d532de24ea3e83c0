/**
 * Host tools as OpenAI function tools: Chat Completions `ChatCompletionFunctionTool` and
 * Responses `FunctionTool`, optionally strict (structured outputs) through the `openai-strict`
 * normalisation, with every schema change reported.
 */
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import type { HostTool, JsonSchema } from '../../registry/types';
import { normalizeSchema } from '../../schema/normalize';
import type { SchemaChange } from '../../schema/reports';
import { type ToolSource, toolsOf } from '../shared/invoke';

/**
 * Options of `toOpenAiChatTools` and `toOpenAiResponsesTools`.
 *
 * @experimental
 */
export interface OpenAiToolsOptions {
  /**
   * Strict function calling (structured outputs): every schema is normalised with the
   * `openai-strict` profile (closed objects, every property required, optional ones nullable,
   * unsupported keywords removed) and sent with `strict: true`. Default false: schemas go as
   * they are, with `strict: false`.
   */
  strict?: boolean;
  /** Told, per tool, every change strict normalisation made (only tools with changes). */
  onSchemaChanges?: (tool: string, changes: SchemaChange[]) => void;
}

/** OpenAI's rule for function names. */
const OPENAI_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The `parameters` of one tool: its own schema, or the strict copy (changes reported). */
function parametersOf(tool: HostTool, options: OpenAiToolsOptions): Record<string, unknown> {
  if (!OPENAI_NAME.test(tool.name)) {
    throw new TypeError(
      `tool name "${tool.name}" is not a valid OpenAI function name (${OPENAI_NAME.source}); import it with name rules that match`,
    );
  }
  if (!options.strict) return tool.inputSchema as Record<string, unknown>;
  const { schema, changes } = normalizeSchema(tool.inputSchema, 'openai-strict');
  if (changes.length > 0) options.onSchemaChanges?.(tool.name, [...changes]);
  return schema as Record<string, unknown>;
}

function descriptionOf(tool: HostTool): { description?: string } {
  const description = tool.description ?? tool.title;
  return description === undefined ? {} : { description };
}

/**
 * Host tools as Chat Completions function tools (`tools` of `chat.completions.create`), in the
 * source's order. A name OpenAI would reject throws a `TypeError` naming it.
 *
 * @experimental
 */
export function toOpenAiChatTools(
  source: ToolSource,
  options: OpenAiToolsOptions = {},
): ChatCompletionFunctionTool[] {
  return toolsOf(source).map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...descriptionOf(tool),
      parameters: parametersOf(tool, options),
      strict: options.strict === true,
    },
  }));
}

/**
 * Host tools as Responses API function tools (`tools` of `responses.create`), in the source's
 * order. A name OpenAI would reject throws a `TypeError` naming it.
 *
 * @experimental
 */
export function toOpenAiResponsesTools(
  source: ToolSource,
  options: OpenAiToolsOptions = {},
): FunctionTool[] {
  return toolsOf(source).map((tool) => ({
    type: 'function',
    name: tool.name,
    ...descriptionOf(tool),
    parameters: parametersOf(tool, options),
    strict: options.strict === true,
  }));
}

/**
 * Drops the `null`s a strict schema made the model send for optional properties: a `null` value
 * of a property the original schema neither requires nor allows to be null is removed, in nested
 * objects and arrays too (local `$ref`s are not followed). Never mutates `args`.
 *
 * @experimental
 */
export function dropStrictNulls(
  args: Record<string, unknown>,
  schema: JsonSchema,
): Record<string, unknown> {
  return cleanObject(args, schema, 0);
}

const MAX_DEPTH = 32;

function cleanValue(value: unknown, schema: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || typeof schema !== 'object' || schema === null) return value;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(value)) {
    return s.items === undefined
      ? value
      : value.map((item) => cleanValue(item, s.items, depth + 1));
  }
  if (typeof value === 'object' && value !== null) {
    return cleanObject(value as Record<string, unknown>, s, depth + 1);
  }
  return value;
}

function cleanObject(
  value: Record<string, unknown>,
  schema: Readonly<Record<string, unknown>>,
  depth: number,
): Record<string, unknown> {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = (properties as Record<string, unknown>)[key];
    if (item === null && propertySchema !== undefined && !required.has(key)) {
      if (!allowsNull(propertySchema)) continue;
    }
    out[key] = cleanValue(item, propertySchema, depth);
  }
  return out;
}

/** Whether a (sub)schema accepts `null` (unknown shapes count as accepting it). */
function allowsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Record<string, unknown>;
  if (s.$ref !== undefined) return true;
  if ('const' in s) return s.const === null;
  if (Array.isArray(s.enum)) return s.enum.includes(null);
  const type = s.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches)) return branches.some(allowsNull);
  }
  return type === undefined && s.not === undefined && s.allOf === undefined;
}
