/**
 * Turning what handlers return into era-neutral results: tool shorthand, output-schema checks,
 * and keeping wire fields (owned by the dispatchers) out of handler results.
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import type { InputRequired, ToolReturn } from '../api';
import type { ValidationResult } from '../schema/types';
import type { ToolEntry } from './tools';

/** A tool failure the model can read. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Fields the dispatchers own; a handler's copy of them never reaches the wire. */
export function withoutWireFields<T extends object>(result: T): T {
  const {
    resultType: _type,
    ttlMs: _ttl,
    cacheScope: _scope,
    ...rest
  } = result as T & {
    resultType?: unknown;
    ttlMs?: unknown;
    cacheScope?: unknown;
  };
  return rest as T;
}

/** Expands a tool's shorthand return value; `undefined` when it is no result at all. */
export function toCallToolResult(
  returned: Exclude<ToolReturn, InputRequired>,
): CallToolResult | undefined {
  if (typeof returned === 'string') return { content: [{ type: 'text', text: returned }] };
  if (Array.isArray(returned)) return { content: returned };
  if (typeof returned !== 'object' || returned === null) return undefined;
  const result = withoutWireFields(returned);
  if (result.content !== undefined && !Array.isArray(result.content)) return undefined;
  if (result.content === undefined && result.structuredContent === undefined) return undefined;
  return result;
}

/**
 * Holds a result to its tool's output schema. A missing or non-conforming `structuredContent`
 * is the tool's failure, so it becomes an `isError` result (the model sees why), never a
 * protocol error; an `isError` result is not checked. Missing or empty content becomes the JSON
 * text of the structured value, the mirror the spec recommends for clients that ignore it.
 */
export function checkOutput(
  entry: ToolEntry,
  result: CallToolResult,
): CallToolResult | Promise<CallToolResult> {
  const name = entry.tool.name;
  const structured = result.structuredContent;
  if (entry.output === undefined || result.isError === true) return mirrored(result, structured);
  if (structured === undefined) {
    return errorResult(`Tool ${name} has an output schema but returned no structuredContent`);
  }
  const conform = (checked: ValidationResult) =>
    checked.ok
      ? mirrored(result, checked.value as CallToolResult['structuredContent'])
      : errorResult(
          `Tool ${name} returned structuredContent that does not match its output schema: ${checked.issues.join('; ')}`,
        );
  // A schema that checks at once gives its answer at once.
  const checking = entry.output.validate(structured);
  return checking instanceof Promise ? checking.then(conform) : conform(checking);
}

/** The result with `structured` as its structured content, mirrored as text when it has none. */
function mirrored(
  result: CallToolResult,
  structured: CallToolResult['structuredContent'],
): CallToolResult {
  if (structured === undefined) return result;
  const content = result.content ?? [];
  return {
    ...result,
    content: content.length > 0 ? content : [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}
