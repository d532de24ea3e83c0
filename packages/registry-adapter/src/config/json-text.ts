/**
 * Reading an `mcp.json` from text: JSON with comments and trailing commas (JSONC, as VS Code and
 * Cursor allow), parsed by `jsonc-parser`. A syntax error is reported with its line and column and
 * a reason, never with the file's contents (which may hold secrets).
 */
import { type JSONVisitor, visit } from 'jsonc-parser';
import { McpConfigError } from './errors';
import { checkMcpConfig } from './parse';
import type { McpConfig } from './types';

/**
 * A raw `mcp.json` document and its parsed config.
 *
 * @experimental
 */
export interface McpConfigDocument {
  /** The JSON as written; edit this, not `config`, so a file keeps only the user's fields. */
  raw: Record<string, unknown>;
  /** `raw` validated, with defaults filled. */
  config: McpConfig;
  /** The text `raw` was read from (or written as), comments and formatting included. */
  text: string;
}

/**
 * Parses JSONC text (JSON, comments and trailing commas allowed) into an object, throwing
 * `McpConfigError` with the line and column of a syntax error. A leading byte-order mark is
 * ignored.
 *
 * @experimental
 */
export function parseJsonObject(text: string, file?: string): Record<string, unknown> {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const { value, error } = parseJsonc(source);
  const options = file === undefined ? {} : { file };
  if (error !== undefined) {
    const { line, column } = lineAndColumn(source, error.offset);
    const message = `invalid JSON at line ${line}, column ${column}: ${error.reason}`;
    throw new McpConfigError([{ path: '', message }], options);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const issue = { path: '', message: 'an MCP config must be a JSON object with "mcpServers"' };
    throw new McpConfigError([issue], options);
  }
  return value as Record<string, unknown>;
}

/**
 * Parses and validates `mcp.json` text. Throws `McpConfigError` (with `file`, when given).
 *
 * @experimental
 */
export function parseMcpConfigText(text: string, file?: string): McpConfigDocument {
  const raw = parseJsonObject(text, file);
  const checked = checkMcpConfig(raw);
  if (!checked.ok) throw new McpConfigError(checked.issues, file === undefined ? {} : { file });
  return { raw, config: checked.config, text };
}

/** 1-based line and column (in UTF-16 units) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const MAX_DEPTH = 512;

/** A syntax error: where, and why in words. */
export interface JsonSyntaxError {
  offset: number;
  reason: string;
}

/**
 * The value of JSONC `text` built from `jsonc-parser`'s events, or its first syntax error. Keys
 * become own properties (a `"__proto__"` key is data, as with `JSON.parse`); the last of
 * duplicate keys wins.
 */
export function parseJsonc(text: string): { value: unknown; error?: JsonSyntaxError } {
  const containers: Array<{ node: unknown[] | Record<string, unknown>; key?: string }> = [];
  let key: string | undefined;
  /** After `{` or an object's `,`: what comes next must be a property name. */
  let expectKey = false;
  let root: unknown;
  let error: JsonSyntaxError | undefined;
  const fail = (reason: string, offset: number): never => {
    error = { offset, reason };
    // Stops the scan: the first error is the one worth reporting.
    throw error;
  };
  const put = (value: unknown): void => {
    expectKey = false;
    const parent = containers.at(-1)?.node;
    if (parent === undefined) root = value;
    else if (Array.isArray(parent)) parent.push(value);
    else
      Object.defineProperty(parent, key as string, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  };
  const open = (node: unknown[] | Record<string, unknown>, offset: number): void => {
    if (containers.length >= MAX_DEPTH) fail('nested too deeply', offset);
    put(node);
    containers.push({ node });
  };
  const close = (): void => {
    containers.pop();
    expectKey = false;
  };
  const visitor: JSONVisitor = {
    onObjectBegin: (offset) => {
      open({}, offset);
      expectKey = true;
    },
    onArrayBegin: (offset) => open([], offset),
    onObjectEnd: () => close(),
    onArrayEnd: () => close(),
    onObjectProperty: (name) => {
      key = name;
      expectKey = false;
    },
    onSeparator: (separator) => {
      expectKey = separator === ',' && !Array.isArray(containers.at(-1)?.node);
    },
    onLiteralValue: (value) => put(value),
    onError: (code, offset) => {
      const inArray = Array.isArray(containers.at(-1)?.node);
      // An unquoted key is an "invalid symbol" to the scanner; say what was expected.
      const reason = code === 1 && expectKey ? 3 : code;
      fail(describeError(reason, text, offset, inArray), offset);
    },
  };
  try {
    visit(text, visitor, { allowTrailingComma: true, disallowComments: false });
  } catch (thrown) {
    if (thrown !== error) throw thrown;
  }
  return error === undefined ? { value: root } : { value: undefined, error };
}

/** `jsonc-parser`'s error codes (a `const enum` there, so not importable as values). */
const REASONS: Readonly<Record<number, (at: string, inArray: boolean) => string>> = {
  1: (at) => at,
  2: () => 'invalid number',
  3: (at) => `expected a property name in double quotes (${at})`,
  4: (at) => (at === 'unexpected end of file' ? at : `expected a value (${at})`),
  5: (at) => `expected ":" after a property name (${at})`,
  6: (at, inArray) => `expected "," or "${inArray ? ']' : '}'}" (${at})`,
  7: (at) => `expected "," or "}" (${at})`,
  8: (at) => `expected "," or "]" (${at})`,
  9: (at) => `unexpected content after the JSON value (${at})`,
  10: () => 'invalid comment',
  11: () => 'unterminated comment (a "/*" without "*/")',
  12: () => 'unterminated string (line breaks inside a string must be written \\n)',
  13: () => 'unexpected end of a number',
  14: () => 'invalid escape in a string (\\u needs four hexadecimal digits)',
  15: () => 'invalid escape in a string',
  16: () => 'control character in a string (write it as an escape such as \\t)',
};

function describeError(code: number, text: string, offset: number, inArray: boolean): string {
  const at = describeCharAt(text, offset);
  return REASONS[code]?.(at, inArray) ?? `not valid JSON (${at})`;
}

function describeCharAt(text: string, offset: number): string {
  if (offset >= text.length) return 'unexpected end of file';
  const c = text[offset];
  if (c === "'") return 'strings must use double quotes';
  return `unexpected character ${JSON.stringify(c)}`;
}
