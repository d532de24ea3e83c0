/**
 * Reading an `mcp.json` from text: `JSON.parse`, and when that fails, a small scanner that finds
 * where and why, so the error gives a line and column (and never echoes the file's contents,
 * which may hold secrets).
 */
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
}

/**
 * Parses JSON text into an object, throwing `McpConfigError` with the line and column of a syntax
 * error. A leading byte-order mark is ignored.
 *
 * @experimental
 */
export function parseJsonObject(text: string, file?: string): Record<string, unknown> {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (cause) {
    const { offset, reason } = findJsonError(source);
    const { line, column } = lineAndColumn(source, offset);
    const issue = {
      path: '',
      message: `invalid JSON at line ${line}, column ${column}: ${reason}`,
    };
    throw new McpConfigError([issue], { ...(file === undefined ? {} : { file }), cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const issue = { path: '', message: 'an MCP config must be a JSON object with "mcpServers"' };
    throw new McpConfigError([issue], file === undefined ? {} : { file });
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
  return { raw, config: checked.config };
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

/** Where `JSON.parse` failed on `text`, found by a validating scan; mirrors RFC 8259. */
export function findJsonError(text: string): { offset: number; reason: string } {
  let i = 0;
  const fail = (reason: string): never => {
    throw { offset: i, reason };
  };
  const describeChar = (): string => {
    if (i >= text.length) return 'unexpected end of file';
    const c = text[i];
    if (c === '/') return 'comments are not allowed in JSON';
    if (c === "'") return 'strings must use double quotes';
    return `unexpected character ${JSON.stringify(c)}`;
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(describeChar());
  };
  const string = (): void => {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in a string (line breaks must be written \\n)');
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail('invalid escape in a string');
      } else i++;
    }
    fail('unterminated string');
  };
  const number = (): void => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null) fail(describeChar());
    else i += m[0].length;
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"')
          fail(
            text[i] === '}'
              ? 'trailing comma before "}"'
              : `expected a property name in double quotes (${describeChar()})`,
          );
        string();
        space();
        if (text[i] !== ':') fail(`expected ":" after a property name (${describeChar()})`);
        i++;
        value(depth + 1);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}" (${describeChar()})`);
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] === ']') fail('trailing comma before "]"');
        value(depth + 1);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]" (${describeChar()})`);
      }
    }
    if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail(describeChar());
  };
  try {
    value(0);
    space();
    if (i < text.length) fail(`unexpected content after the JSON value (${describeChar()})`);
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'reason' in error) {
      return error as { offset: number; reason: string };
    }
    throw error;
  }
  // The scan found nothing (should not happen when JSON.parse failed).
  return { offset: 0, reason: 'not valid JSON' };
}
