/**
 * Human renderings of MCP results: content blocks as text (binary ones summarised), prompt
 * messages, capability lists.
 */
import type { Paint } from './output';

type Block = Record<string, unknown>;

/** One content block as text: text as is, everything else as a one-line summary. */
export function renderBlock(block: Block, paint: Paint): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'image':
    case 'audio':
      return paint.dim(
        `[${block.type} ${String(block.mimeType ?? '')}, ${base64Bytes(block.data)} bytes]`,
      );
    case 'resource_link':
      return paint.dim(
        `[link ${String(block.uri ?? '')}${block.name ? ` "${String(block.name)}"` : ''}]`,
      );
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      if (typeof resource.text === 'string') {
        return `${paint.dim(`[resource ${String(resource.uri ?? '')}]`)}\n${resource.text}`;
      }
      return paint.dim(
        `[resource ${String(resource.uri ?? '')}, ${base64Bytes(resource.blob)} bytes]`,
      );
    }
    default:
      return JSON.stringify(block);
  }
}

/** Content blocks, one after the other. */
export function renderContent(content: unknown, paint: Paint): string {
  const blocks = Array.isArray(content) ? (content as Block[]) : [];
  return blocks.map((block) => renderBlock(block, paint)).join('\n');
}

/** Bytes a base64 string stands for. */
export function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** `tools (listChanged), resources (subscribe, listChanged), logging`. */
export function renderCapabilities(capabilities: Record<string, unknown>): string {
  return Object.entries(capabilities)
    .map(([name, value]) => {
      const flags =
        typeof value === 'object' && value !== null
          ? Object.entries(value)
              .filter(([, on]) => on === true)
              .map(([flag]) => flag)
          : [];
      return flags.length > 0 ? `${name} (${flags.join(', ')})` : name;
    })
    .join(', ');
}

/** The first line of a description, for a table cell. */
export function firstLine(text: unknown): string {
  return typeof text === 'string' ? (text.split('\n')[0] ?? '').trim() : '';
}
