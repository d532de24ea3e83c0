/** mcp.json text: JSON syntax errors with line and column (never the file's content). */
import { describe, expect, it } from 'vitest';
import {
  lineAndColumn,
  parseJsonc,
  parseJsonObject,
  parseMcpConfigText,
} from '../../src/config/json-text';
import { configErrorOf } from './support';

describe('parseJsonObject: syntax errors', () => {
  it.each([
    [
      'a missing comma',
      '{\n  "a": 1\n  "b": 2\n}',
      3,
      3,
      'expected "," or "}" (unexpected character "\\"")',
    ],
    [
      'a missing comma in an array',
      '{"a": [1 2]}',
      1,
      10,
      'expected "," or "]" (unexpected character "2")',
    ],
    ['single quotes', '{\n\t"a": \'x\'\n}', 2, 7, 'strings must use double quotes'],
    [
      'an unquoted key',
      '{ mcpServers: {} }',
      1,
      3,
      'expected a property name in double quotes (unexpected character "m")',
    ],
    [
      'an unquoted key after a comma',
      '{"a": 1, b: 2}',
      1,
      10,
      'expected a property name in double quotes (unexpected character "b")',
    ],
    [
      'a missing colon',
      '{"a" 1}',
      1,
      6,
      'expected ":" after a property name (unexpected character "1")',
    ],
    [
      'a raw line break in a string',
      '{"a": "x\ny"}',
      1,
      7,
      'unterminated string (line breaks inside a string must be written \\n)',
    ],
    [
      'a tab in a string',
      '{"a": "x\ty"}',
      1,
      7,
      'control character in a string (write it as an escape such as \\t)',
    ],
    ['a bad escape', '{"a": "\\q"}', 1, 7, 'invalid escape in a string'],
    [
      'a short unicode escape',
      '{"a": "\\u12"}',
      1,
      7,
      'invalid escape in a string (\\u needs four hexadecimal digits)',
    ],
    [
      'an unterminated string',
      '{"a": "x',
      1,
      7,
      'unterminated string (line breaks inside a string must be written \\n)',
    ],
    ['an unterminated comment', '{"a": 1 /* x', 1, 9, 'unterminated comment (a "/*" without "*/")'],
    ['a truncated file', '{"mcpServers": {', 1, 17, 'expected "," or "}" (unexpected end of file)'],
    ['an empty file', '', 1, 1, 'unexpected end of file'],
    ['a misspelt literal', '{"a": tru}', 1, 7, 'unexpected character "t"'],
    ['a leading zero', '{"a": 01}', 1, 8, 'expected "," or "}" (unexpected character "1")'],
    ['two commas', '{"a": [1,,2]}', 1, 10, 'expected a value (unexpected character ",")'],
    [
      'content after the value',
      '{"a": 1} {}',
      1,
      10,
      'unexpected content after the JSON value (unexpected character "{")',
    ],
    [
      'CRLF line endings',
      '{\r\n  "a": 1\r\n  "b": 2\r\n}',
      3,
      3,
      'expected "," or "}" (unexpected character "\\"")',
    ],
  ])('%s', (_label, text, line, column, reason) => {
    const error = configErrorOf(() => parseJsonObject(text));
    expect(error.issues).toEqual([
      { path: '', message: `invalid JSON at line ${line}, column ${column}: ${reason}` },
    ]);
  });

  it.each([
    ['a line comment', '{\n  // servers\n  "mcpServers": {}\n}'],
    ['a block comment', '/* twofold */ {"mcpServers": /* none yet */ {}}'],
    ['a trailing comma in an object', '{\n  "mcpServers": {},\n}'],
    ['a trailing comma in an array', '{"mcpServers": {}, "x": [1, 2,]}'],
  ])('reads JSONC: %s', (_label, text) => {
    expect(parseJsonObject(text)).toMatchObject({ mcpServers: {} });
  });

  it('keeps a "__proto__" key as data and the last of duplicate keys', () => {
    const raw = parseJsonObject('{"__proto__": {"polluted": true}, "a": 1, "a": 2}');
    expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
    expect(Object.keys(raw)).toEqual(['__proto__', 'a']);
    expect(raw.a).toBe(2);
  });

  it('never echoes the content around the error', () => {
    const text = '{"mcpServers": {"gh": {"env": {"TOKEN": "hunter2-secret"}}}';
    const error = configErrorOf(() => parseJsonObject(text, 'mcp.json'));
    expect(error.message).toBe(
      'invalid MCP config mcp.json: invalid JSON at line 1, column 60: expected "," or "}" (unexpected end of file)',
    );
    expect(error.message).not.toContain('hunter2');
    expect(error.file).toBe('mcp.json');
  });

  it('parses an object, ignoring a byte-order mark', () => {
    expect(parseJsonObject('\uFEFF{"mcpServers": {}}')).toEqual({ mcpServers: {} });
  });

  it.each(['[]', 'null', '"text"', '42'])('refuses %s, which is JSON but not an object', (text) => {
    expect(configErrorOf(() => parseJsonObject(text)).issues).toEqual([
      { path: '', message: 'an MCP config must be a JSON object with "mcpServers"' },
    ]);
  });
});

describe('parseMcpConfigText', () => {
  it('returns the raw document as written and the config with defaults', () => {
    const text = '{\n  "mcpServers": { "fs": { "command": "npx" } }\n}\n';
    const { raw, config } = parseMcpConfigText(text);
    expect(raw).toEqual({ mcpServers: { fs: { command: 'npx' } } });
    expect(config.mcpServers.fs).toMatchObject({
      type: 'stdio',
      command: 'npx',
      args: [],
      enabled: true,
    });
  });

  it('names the file in validation errors', () => {
    const error = configErrorOf(() =>
      parseMcpConfigText('{"mcpServers": {"fs": {"comand": "x"}}}', 'cfg/mcp.json'),
    );
    expect(error.file).toBe('cfg/mcp.json');
    expect(error.message).toMatch(/^invalid MCP config cfg\/mcp\.json \(2 problems\):/);
    expect(error.message).toContain(
      'unknown field "comand" in mcpServers.fs (did you mean "command"?)',
    );
  });
});

describe('lineAndColumn and parseJsonc', () => {
  it.each([
    ['abc', 0, 1, 1],
    ['abc', 2, 1, 3],
    ['a\nb', 2, 2, 1],
    ['a\n\nbc', 4, 3, 2],
    ['ab', 10, 1, 11],
  ])('%j at %i is line %i, column %i', (text, offset, line, column) => {
    expect(lineAndColumn(text, offset)).toEqual({ line, column });
  });

  it('reads every kind of JSON value', () => {
    expect(parseJsonc('{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"]}')).toEqual({
      value: { a: [1, -2500, true, false, null, 'é\n'] },
    });
  });

  it('stops at a nesting depth limit instead of overflowing', () => {
    const deep = `${'['.repeat(600)}x`;
    expect(parseJsonc(deep).error).toEqual({ offset: 512, reason: 'nested too deeply' });
  });
});
