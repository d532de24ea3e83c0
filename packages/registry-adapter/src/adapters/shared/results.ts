/**
 * Turning MCP tool results into the text or values a host format carries, and host values back
 * into MCP results. Shared by the adapters; nothing here depends on a host package.
 */
import type { CallToolResult, ContentBlock } from '@twofold/protocol/experimental';

/** A one-line placeholder for a block a text-only format cannot carry (the data is dropped). */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}]`;
    case 'resource_link':
      return `[resource: ${block.uri}]`;
    case 'resource': {
      const resource = block.resource as { uri: string; text?: unknown; mimeType?: string };
      if (typeof resource.text === 'string') return resource.text;
      return `[resource: ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}]`;
    }
    default:
      return JSON.stringify(block);
  }
}

/**
 * The text of a tool result for formats that carry only text: text blocks as they are, other
 * blocks as short placeholders, and `structuredContent` as JSON when there is no content.
 *
 * @experimental
 */
export function resultText(result: CallToolResult): string {
  const content = result.content ?? [];
  if (content.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return content.map(blockText).join('\n');
}

/** Whether `value` already is a tool result (has a `content` array). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

/** An `isError` result with one text block. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * A host function's return value as a tool result: a result as it is, a string as one text
 * block, `undefined` as no content, a plain object as JSON text plus `structuredContent`, any
 * other value as JSON text.
 */
export function valueToResult(value: unknown): CallToolResult {
  if (isCallToolResult(value)) return value;
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const text = JSON.stringify(value) ?? String(value);
  const structured =
    typeof value === 'object' && !Array.isArray(value)
      ? { structuredContent: value as Record<string, unknown> }
      : {};
  return { content: [{ type: 'text', text }], ...structured };
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
}
