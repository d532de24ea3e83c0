/**
 * What an oversized message was, read from the few bytes kept of it: its first bytes (the top
 * level members before the huge value) and its last bytes (the simple members after it, where
 * serializers that write `result` first put `jsonrpc` and `id`). A response's `id` lets the
 * client fail that one request at once instead of letting it wait out its timeout.
 *
 * Only well-formed JSON is read soundly; anything else yields `unknown`, never a wrong `id`
 * for a well-formed message.
 */
import type { RequestId } from '@twofold/protocol/experimental';

/**
 * What could be read of an oversized message.
 *
 * @experimental
 */
export interface EnvelopePeek {
  /** `unknown` when neither `method` nor `result`/`error` could be seen. */
  kind: 'response' | 'request' | 'notification' | 'unknown';
  /** The message's `id`, when it could be read. */
  id?: RequestId;
}

/** How many bytes of an oversized message's start and end are kept for {@link peekEnvelope}. */
export const PEEK_HEAD_BYTES = 1024;
export const PEEK_TAIL_BYTES = 256;

interface Members {
  keys: Set<string>;
  id?: RequestId;
}

/**
 * Reads what `head` (the start of a message) and `tail` (its end, when the message ended)
 * say about the message's top-level members.
 *
 * @experimental
 */
export function peekEnvelope(head: string, tail?: string): EnvelopePeek {
  const members: Members = { keys: new Set() };
  readHead(head, members);
  if (tail !== undefined) readTail(tail, members);
  const { keys, id } = members;
  const known = id === undefined ? {} : { id };
  if (keys.has('method')) return { kind: keys.has('id') ? 'request' : 'notification', ...known };
  if (keys.has('result') || keys.has('error')) return { kind: 'response', ...known };
  return { kind: 'unknown', ...known };
}

/** Whether `peek` settles what the message was (a response without an id does not). */
export function isDecisive(peek: EnvelopePeek): boolean {
  return peek.kind === 'request' || peek.kind === 'notification' || peek.id !== undefined;
}

/** Walks the top-level object members of `text` until it ends or stops making sense. */
function readHead(text: string, members: Members): void {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return;
  i++;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] !== '"') return;
    const key = stringEnd(text, i);
    if (key < 0) return;
    const name = unquote(text.slice(i, key));
    if (name === undefined) return;
    i = skipSpace(text, key);
    if (text[i] !== ':') return;
    i = skipSpace(text, i + 1);
    // The key counts even when its value is cut off: that is where the huge value sits.
    members.keys.add(name);
    const end = valueEnd(text, i);
    if (end < 0) return;
    if (name === 'id') {
      const id = idOf(text.slice(i, end));
      if (id !== undefined) members.id = id;
    }
    i = skipSpace(text, end);
    if (text[i] !== ',') return;
    i++;
  }
}

// The last top-level member when it is a plain value: `,"key":value` right before the final `}`.
// An unescaped `"` right after `{` or `,` can only open a key in valid JSON, so this never
// matches inside a string or a nested value.
const LAST_MEMBER =
  /[{,]\s*"([^"\\]*)"\s*:\s*("[^"\\]*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*$/;

/** Reads the plain members at the end of the top-level object from its last bytes. */
function readTail(text: string, members: Members): void {
  let rest = text.trimEnd();
  if (!rest.endsWith('}')) return;
  rest = rest.slice(0, -1);
  for (;;) {
    const match = LAST_MEMBER.exec(rest);
    if (match === null) return;
    const [whole, name, value] = match as unknown as [string, string, string];
    members.keys.add(name);
    if (name === 'id' && members.id === undefined) {
      const id = idOf(value);
      if (id !== undefined) members.id = id;
    }
    rest = rest.slice(0, rest.length - whole.length);
    // The `{` that opened the object: nothing more before it.
    if (whole.trimStart().startsWith('{')) return;
  }
}

function idOf(raw: string): RequestId | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

function unquote(raw: string): string | undefined {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (
    i < text.length &&
    (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')
  )
    i++;
  return i;
}

/** The index after the string opening at `from`; -1 when it is cut off. */
function stringEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/** The index after the value starting at `from`; -1 when it is cut off. */
function valueEnd(text: string, from: number): number {
  const first = text[from];
  if (first === '"') return stringEnd(text, from);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = from; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        const end = stringEnd(text, i);
        if (end < 0) return -1;
        i = end - 1;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = from;
  while (i < text.length && !/[\s,}\]]/.test(text[i] as string)) i++;
  // A plain value that runs to the end of the bytes kept may be cut off.
  return i === text.length || i === from ? -1 : i;
}
