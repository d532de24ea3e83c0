import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildRequestHeaders,
  checkRequestHeaders,
  decodeHeaderValue,
  encodeArgumentForHeader,
  encodeHeaderValue,
  encodeParamValue,
  MCP_METHOD_HEADER,
  MCP_NAME_HEADER,
  MCP_PARAM_HEADER_PREFIX,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  mcpNameFor,
} from '../src/http-headers';
import type { McpHeaderParam } from '../src/x-mcp-header';

// A header value as RFC 9110 field-value allows it: VCHAR/SP/HTAB, no edge whitespace.
const LEGAL_FIELD_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

function lookup(headers: Record<string, string>): (name: string) => string | undefined {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lower.get(name.toLowerCase());
}

function decoded(raw: string): string {
  const result = decodeHeaderValue(raw);
  if (!result.ok) throw new Error(`decode failed: ${result.reason}`);
  return result.value;
}

describe('header names', () => {
  it('uses the spelling of the spec', () => {
    expect(MCP_PROTOCOL_VERSION_HEADER).toBe('MCP-Protocol-Version');
    expect(MCP_METHOD_HEADER).toBe('Mcp-Method');
    expect(MCP_NAME_HEADER).toBe('Mcp-Name');
    expect(MCP_PARAM_HEADER_PREFIX).toBe('Mcp-Param-');
    expect(MCP_SESSION_ID_HEADER).toBe('Mcp-Session-Id');
  });
});

// streamable-http.mdx, "Value Encoding" → "Encoding examples" table.
const SPEC_EXAMPLES: ReadonlyArray<readonly [string, string]> = [
  ['us-west1', 'us-west1'],
  ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
  [' padded ', '=?base64?IHBhZGRlZCA=?='],
  ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
  ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
];

// SEP-2243 "Value Encoding Edge Cases" (historical record, consistent with the spec page).
const SEP_EXAMPLES: ReadonlyArray<readonly [string, string]> = [
  [' us-west1', '=?base64?IHVzLXdlc3Qx?='],
  ['us-west1 ', '=?base64?dXMtd2VzdDEg?='],
  [' us-west1 ', '=?base64?IHVzLXdlc3QxIA==?='],
  ['us west 1', 'us west 1'],
  ['日本語', '=?base64?5pel5pys6Kqe?='],
  ['line1\r\nline2', '=?base64?bGluZTENCmxpbmUy?='],
  ['\tindented', '=?base64?CWluZGVudGVk?='],
  ['', ''],
];

describe('encodeHeaderValue / decodeHeaderValue', () => {
  it.each([...SPEC_EXAMPLES, ...SEP_EXAMPLES])('encodes %j as %j and back', (input, header) => {
    expect(encodeHeaderValue(input)).toBe(header);
    expect(decodeHeaderValue(header)).toEqual({ ok: true, value: input });
  });

  it('encodes other control characters, DEL and an inner tab', () => {
    for (const s of ['a\u0000b', 'a\u007fb', 'a\tb', 'a\u001bb']) {
      expect(encodeHeaderValue(s).startsWith('=?base64?')).toBe(true);
      expect(decoded(encodeHeaderValue(s))).toBe(s);
    }
  });

  it('encodes anything that looks like the sentinel, including the overlapping form', () => {
    for (const s of ['=?base64??=', '=?base64?=', '=?base64?SGVsbG8=?=']) {
      expect(encodeHeaderValue(s)).not.toBe(s);
      expect(decoded(encodeHeaderValue(s))).toBe(s);
    }
  });

  it('keeps a leading byte order mark', () => {
    expect(decoded(encodeHeaderValue('\ufeffx'))).toBe('\ufeffx');
  });

  // SEP-2243 "Server Validation Edge Cases → Base64 Decoding".
  it('decodes the SEP base64 examples', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8=?=')).toEqual({ ok: true, value: 'Hello' });
    expect(decodeHeaderValue('=?base64?SGVsbG8?=').ok).toBe(false);
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=').ok).toBe(false);
    expect(decodeHeaderValue('SGVsbG8=')).toEqual({ ok: true, value: 'SGVsbG8=' });
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toEqual({
      ok: true,
      value: '=?base64?SGVsbG8=',
    });
    expect(decodeHeaderValue('=?BASE64?SGVsbG8=?=')).toEqual({
      ok: true,
      value: '=?BASE64?SGVsbG8=?=',
    });
  });

  it('rejects malformed sentinels', () => {
    for (const raw of [
      '=?base64?=', // prefix and suffix overlap
      '=?base64?SGVsbG8-?=', // URL-safe alphabet
      '=?base64?SGVsbG9=?=', // non-zero pad bits
      '=?base64?SGVs bG8=?=', // inner space
      '=?base64?SGVsbG8==?=', // too much padding
      '=?base64?S?=', // length not a multiple of 4
      '=?base64?/w==?=', // 0xFF: not UTF-8
      '=?base64?wKA=?=', // overlong encoding
      '=?base64?7aCA?=', // encoded surrogate
    ]) {
      expect(decodeHeaderValue(raw).ok, raw).toBe(false);
    }
    expect(decodeHeaderValue('=?base64??=')).toEqual({ ok: true, value: '' });
  });

  it('rejects illegal characters and edge whitespace in plain values', () => {
    for (const raw of [
      'a\r\nb',
      'a\nb',
      'a\rb',
      'a\u0000b',
      'a\u007fb',
      'caf\u00e9',
      ' x',
      'x\t',
    ]) {
      expect(decodeHeaderValue(raw).ok, JSON.stringify(raw)).toBe(false);
    }
    expect(decodeHeaderValue('a\tb')).toEqual({ ok: true, value: 'a\tb' });
  });

  it('round-trips any string and always yields a legal field value (property)', () => {
    const edges = fc.constantFrom('', ' ', '\t', '=?base64?', '?=', '\r\n');
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary-ascii' }),
      fc.tuple(edges, fc.string({ unit: 'grapheme-ascii' }), edges).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(text, (s) => {
        const header = encodeHeaderValue(s);
        expect(header).toMatch(LEGAL_FIELD_VALUE);
        expect(decodeHeaderValue(header)).toEqual({ ok: true, value: s });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('encodeParamValue', () => {
  // streamable-http.mdx "Type conversion": `42`, `-7`, lowercase `true`/`false`.
  it('converts integers and booleans as the spec lists', () => {
    expect(encodeParamValue(42)).toBe('42');
    expect(encodeParamValue(-7)).toBe('-7');
    expect(encodeParamValue(true)).toBe('true');
    expect(encodeParamValue(false)).toBe('false');
    expect(encodeParamValue('us-west1')).toBe('us-west1');
  });

  it('covers the safe integer range and nothing beyond', () => {
    expect(encodeParamValue(2 ** 53 - 1)).toBe('9007199254740991');
    expect(encodeParamValue(-(2 ** 53 - 1))).toBe('-9007199254740991');
    expect(encodeParamValue(-0)).toBe('0');
    for (const n of [2 ** 53, -(2 ** 53), 3.25, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(encodeParamValue(n)).toBeUndefined();
    }
  });
});

describe('mcpNameFor', () => {
  it('reads name or uri for the three methods only', () => {
    expect(mcpNameFor('tools/call', { name: 'get_weather' })).toBe('get_weather');
    expect(mcpNameFor('prompts/get', { name: 'p' })).toBe('p');
    expect(mcpNameFor('resources/read', { uri: 'file:///x' })).toBe('file:///x');
    expect(mcpNameFor('resources/read', { name: 'x' })).toBeUndefined();
    expect(mcpNameFor('tools/list', { name: 'x' })).toBeUndefined();
    expect(mcpNameFor('tools/call', { name: 3 })).toBeUndefined();
    expect(mcpNameFor('tools/call', undefined)).toBeUndefined();
    expect(mcpNameFor('tools/call', Object.create({ name: 'inherited' }))).toBeUndefined();
  });
});

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const REGION: McpHeaderParam = { header: 'Region', path: ['region'], type: 'string' };
const COUNT: McpHeaderParam = { header: 'Count', path: ['opts', 'count'], type: 'integer' };
const FLAG: McpHeaderParam = { header: 'Flag', path: ['flag'], type: 'boolean' };
const PARAMS = [REGION, COUNT, FLAG];

function call(args: Record<string, unknown>, name = 'execute_sql') {
  return { id: 1, method: 'tools/call', params: { _meta: META, name, arguments: args } };
}

describe('buildRequestHeaders', () => {
  // streamable-http.mdx "Standard Request Headers" examples.
  it('matches the tools/call and resources/read examples', () => {
    const weather = call({ location: 'Seattle, WA' }, 'get_weather');
    expect(buildRequestHeaders(weather, '2026-07-28')).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'get_weather',
    });
    const read = {
      method: 'resources/read',
      params: { uri: 'file:///projects/myapp/config.json' },
    };
    expect(buildRequestHeaders(read, '2026-07-28')).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'resources/read',
      'Mcp-Name': 'file:///projects/myapp/config.json',
    });
  });

  // streamable-http.mdx "Schema Extension" → "Resulting HTTP request".
  it('matches the execute_sql example', () => {
    const message = call({ region: 'us-west1', query: 'SELECT * FROM users' });
    expect(buildRequestHeaders(message, '2026-07-28', [REGION])).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'execute_sql',
      'Mcp-Param-Region': 'us-west1',
    });
  });

  it('encodes names and params, and omits absent, null and mistyped values', () => {
    const message = call({ region: 'Zürich', opts: { count: 42 }, flag: null }, 'wetter ☀');
    const headers = buildRequestHeaders(message, '2026-07-28', PARAMS);
    expect(decoded(headers['Mcp-Name'] ?? '')).toBe('wetter ☀');
    expect(decoded(headers['Mcp-Param-Region'] ?? '')).toBe('Zürich');
    expect(headers['Mcp-Param-Count']).toBe('42');
    expect(headers).not.toHaveProperty('Mcp-Param-Flag');
    const mistyped = call({ region: 7, opts: { count: '42' }, flag: 'yes' });
    expect(Object.keys(buildRequestHeaders(mistyped, '2026-07-28', PARAMS))).toEqual([
      'MCP-Protocol-Version',
      'Mcp-Method',
      'Mcp-Name',
    ]);
    expect(encodeArgumentForHeader(COUNT, { opts: { count: 2 ** 53 } })).toBeUndefined();
  });

  it('does not read inherited properties as arguments', () => {
    const inherited: McpHeaderParam = { header: 'C', path: ['constructor'], type: 'string' };
    expect(encodeArgumentForHeader(inherited, {})).toBeUndefined();
  });

  it('adds no Mcp-Name or Mcp-Param headers to other methods', () => {
    const list = { method: 'tools/list', params: { name: 'x', arguments: { region: 'a' } } };
    expect(Object.keys(buildRequestHeaders(list, '2026-07-28', PARAMS))).toEqual([
      'MCP-Protocol-Version',
      'Mcp-Method',
    ]);
  });

  it('mirrors the trace context of _meta, and only a valid one', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const traced = { method: 'tools/list', params: { _meta: { traceparent, tracestate: 'a=1' } } };
    expect(buildRequestHeaders(traced, '2026-07-28')).toMatchObject({
      traceparent,
      tracestate: 'a=1',
    });
    const malformed = {
      method: 'tools/list',
      params: { _meta: { traceparent: 'x', baggage: 'b' } },
    };
    expect(Object.keys(buildRequestHeaders(malformed, '2026-07-28'))).toEqual([
      'MCP-Protocol-Version',
      'Mcp-Method',
    ]);
  });

  it('throws when the method or version cannot be a plain header', () => {
    expect(() => buildRequestHeaders({ method: 'a\nb' }, '2026-07-28')).toThrow(TypeError);
    expect(() => buildRequestHeaders({ method: 'tools/list' }, ' 2026')).toThrow(TypeError);
  });
});

type Message = Parameters<typeof checkRequestHeaders>[1];

describe('checkRequestHeaders', () => {
  const full = call({ region: 'us-west1', opts: { count: 42 }, flag: true });
  const good = buildRequestHeaders(full, '2026-07-28', PARAMS);
  const check = (headers: Record<string, string>, message: Message = full) =>
    checkRequestHeaders(lookup(headers), message, PARAMS);
  const failsOn = (headers: Record<string, string>, header: string, message: Message = full) => {
    const result = check(headers, message);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.header).toBe(header);
  };
  const without = (name: string) =>
    Object.fromEntries(Object.entries(good).filter(([k]) => k !== name));

  it('accepts what buildRequestHeaders produced, under any header-name case', () => {
    expect(check(good)).toEqual({ ok: true });
    const lower = Object.fromEntries(Object.entries(good).map(([k, v]) => [k.toLowerCase(), v]));
    expect(check(lower)).toEqual({ ok: true });
  });

  it('round-trips encoded names and values', () => {
    const message = call({ region: ' padded ', opts: { count: -7 }, flag: false }, 'Hello, 世界');
    expect(check(buildRequestHeaders(message, '2026-07-28', PARAMS), message)).toEqual({
      ok: true,
    });
  });

  it('rejects missing standard headers', () => {
    failsOn(without('MCP-Protocol-Version'), 'MCP-Protocol-Version');
    failsOn(without('Mcp-Method'), 'Mcp-Method');
    failsOn(without('Mcp-Name'), 'Mcp-Name');
  });

  it('rejects standard headers that differ from the body', () => {
    failsOn({ ...good, 'MCP-Protocol-Version': '2025-11-25' }, 'MCP-Protocol-Version');
    failsOn({ ...good, 'Mcp-Method': 'tools/list' }, 'Mcp-Method');
    failsOn({ ...good, 'Mcp-Method': 'TOOLS/CALL' }, 'Mcp-Method');
    // The spec's error example: Mcp-Name 'foo' against body 'bar'.
    failsOn({ ...good, 'Mcp-Name': 'foo' }, 'Mcp-Name', call({ region: 'us-west1' }, 'bar'));
  });

  it('rejects malformed header values', () => {
    failsOn({ ...good, 'MCP-Protocol-Version': '2026-07-28\r\nX: y' }, 'MCP-Protocol-Version');
    failsOn({ ...good, 'Mcp-Method': 'tools/call\u0000' }, 'Mcp-Method');
    failsOn({ ...good, 'Mcp-Name': '=?base64?ZXhlY3V0ZV9zcWw?=' }, 'Mcp-Name');
    failsOn({ ...good, 'Mcp-Param-Region': 'us-west1\n' }, 'Mcp-Param-Region');
    failsOn({ ...good, 'Mcp-Param-Region': '=?base64?/w==?=' }, 'Mcp-Param-Region');
  });

  it('accepts a sentinel-encoded value even where plain would do', () => {
    expect(check({ ...good, 'Mcp-Name': '=?base64?ZXhlY3V0ZV9zcWw=?=' })).toEqual({ ok: true });
  });

  it('compares integers numerically', () => {
    for (const v of ['42.0', '4.2e1', '420e-1', '42.000', '=?base64?NDIuMA==?=']) {
      expect(check({ ...good, 'Mcp-Param-Count': v }), v).toEqual({ ok: true });
    }
    for (const v of ['42.5', '43', '042', '+42', '0x2a', '42e99999', 'forty-two']) {
      failsOn({ ...good, 'Mcp-Param-Count': v }, 'Mcp-Param-Count');
    }
    const max = call({ region: 'us-west1', opts: { count: 2 ** 53 - 1 }, flag: true });
    const maxHeaders = buildRequestHeaders(max, '2026-07-28', PARAMS);
    expect(check(maxHeaders, max)).toEqual({ ok: true });
    failsOn({ ...maxHeaders, 'Mcp-Param-Count': '9007199254740991.4' }, 'Mcp-Param-Count', max);
    expect(check({ ...maxHeaders, 'Mcp-Param-Count': '9007199254740991.000' }, max)).toEqual({
      ok: true,
    });
  });

  it('compares booleans as lowercase true/false', () => {
    failsOn({ ...good, 'Mcp-Param-Flag': 'True' }, 'Mcp-Param-Flag');
    failsOn({ ...good, 'Mcp-Param-Flag': 'false' }, 'Mcp-Param-Flag');
  });

  it('requires a param header exactly when the body value is present and non-null', () => {
    failsOn(without('Mcp-Param-Region'), 'Mcp-Param-Region');
    const nulls = call({ region: null, opts: {} });
    expect(check(buildRequestHeaders(nulls, '2026-07-28', PARAMS), nulls)).toEqual({ ok: true });
    const base = buildRequestHeaders(nulls, '2026-07-28', PARAMS);
    failsOn({ ...base, 'Mcp-Param-Region': 'us-west1' }, 'Mcp-Param-Region', nulls);
    failsOn({ ...base, 'Mcp-Param-Count': '1' }, 'Mcp-Param-Count', nulls);
  });

  it('treats a body value of the wrong type as a mismatch', () => {
    const bad = call({ region: 'us-west1', opts: { count: 42.5 }, flag: true });
    failsOn(good, 'Mcp-Param-Count', bad);
    const wrong = call({ region: 5, opts: { count: 42 }, flag: true });
    failsOn({ ...good, 'Mcp-Param-Region': '5' }, 'Mcp-Param-Region', wrong);
  });

  it('ignores param headers on methods other than tools/call and undeclared params', () => {
    const list = { id: 2, method: 'tools/list', params: { _meta: META } };
    expect(
      check({ ...buildRequestHeaders(list, '2026-07-28'), 'Mcp-Param-Region': 'x' }, list),
    ).toEqual({
      ok: true,
    });
    expect(checkRequestHeaders(lookup({ ...good, 'Mcp-Param-Other': 'x' }), full, [])).toEqual({
      ok: true,
    });
  });

  it('needs Mcp-Method on requests only, but checks it when a notification has it', () => {
    const note = { method: 'notifications/cancelled', params: { _meta: META } };
    expect(check({ 'MCP-Protocol-Version': '2026-07-28' }, note)).toEqual({ ok: true });
    failsOn({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'x' }, 'Mcp-Method', note);
    failsOn({ 'MCP-Protocol-Version': '2026-07-28' }, 'Mcp-Method', { ...note, id: 'n' });
  });

  it('leaves a body without a protocol version to body validation', () => {
    const bare = { id: 3, method: 'tools/list', params: {} };
    expect(
      check({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' }, bare),
    ).toEqual({
      ok: true,
    });
  });
});
