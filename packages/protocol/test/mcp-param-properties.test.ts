// Properties of the `Mcp-Param-*` path end to end (schema annotation → encoded headers →
// server check) and of the `=?base64?…?=` sentinel, for arbitrary values: non-ASCII, control
// characters, edge whitespace, sentinel look-alikes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildRequestHeaders,
  checkRequestHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  MCP_PARAM_HEADER_PREFIX,
} from '../src/http-headers';
import { collectHeaderParams } from '../src/x-mcp-header';

const VERSION = '2026-07-28';
// A header value as RFC 9110 field-value allows it: VCHAR/SP/HTAB, no edge whitespace.
const LEGAL_FIELD_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

const edges = fc.constantFrom('', ' ', '\t', '\r\n', '\0', '\u007f', '=?base64?', '?=', '\ufeff');
// Well-formed strings: every one must survive the trip exactly.
const value = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary-ascii' }),
  fc.tuple(edges, fc.string(), edges).map((parts) => parts.join('')),
);
const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const token = fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 12 });

/** Tool arguments with their annotated schema: one string, integer or boolean per header. */
const annotated = fc
  .uniqueArray(
    fc.record({
      header: token,
      nested: fc.boolean(),
      arg: fc.oneof(value, fc.maxSafeInteger(), fc.boolean()),
    }),
    { selector: (p) => p.header.toLowerCase(), maxLength: 5 },
  )
  .map((params) => {
    const properties: Record<string, unknown> = {};
    const args: Record<string, unknown> = {};
    params.forEach(({ header, nested, arg }, i) => {
      const type =
        typeof arg === 'string' ? 'string' : typeof arg === 'boolean' ? 'boolean' : 'integer';
      const leaf = { type, 'x-mcp-header': header };
      const key = `p${i}`;
      if (nested) {
        properties[key] = { type: 'object', properties: { inner: leaf } };
        args[key] = { inner: arg };
      } else {
        properties[key] = leaf;
        args[key] = arg;
      }
    });
    return { schema: { type: 'object', properties }, args, params };
  });

function lookup(headers: Record<string, string>) {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return (name: string) => lower.get(name.toLowerCase());
}

function toolCall(name: string, args: Record<string, unknown>) {
  return {
    id: 1,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION },
    },
  };
}

describe('Mcp-Param-* headers (properties)', () => {
  it('pass the server check for any annotated arguments, and decode to the arguments', () => {
    fc.assert(
      fc.property(annotated, value, ({ schema, args, params }, name) => {
        const collected = collectHeaderParams(schema);
        expect(collected.ok).toBe(true);
        if (!collected.ok) return;
        const message = toolCall(name, args);
        const headers = buildRequestHeaders(message, VERSION, collected.params);
        for (const header of Object.values(headers)) expect(header).toMatch(LEGAL_FIELD_VALUE);
        expect(checkRequestHeaders(lookup(headers), message, collected.params)).toEqual({
          ok: true,
        });
        for (const { header, arg } of params) {
          const raw = headers[MCP_PARAM_HEADER_PREFIX + header];
          expect(raw).toBeDefined();
          expect(decodeHeaderValue(raw as string)).toEqual({ ok: true, value: String(arg) });
        }
      }),
    );
  });

  it('fail the server check when a string argument differs from what its header says', () => {
    fc.assert(
      fc.property(token, value, value, (header, sent, body) => {
        fc.pre(sent !== body);
        const schema = {
          type: 'object',
          properties: { a: { type: 'string', 'x-mcp-header': header } },
        };
        const collected = collectHeaderParams(schema);
        if (!collected.ok) throw new Error(collected.errors.join('; '));
        const headers = buildRequestHeaders(toolCall('t', { a: sent }), VERSION, collected.params);
        const check = checkRequestHeaders(
          lookup(headers),
          toolCall('t', { a: body }),
          collected.params,
        );
        expect(check).toMatchObject({ ok: false, header: MCP_PARAM_HEADER_PREFIX + header });
      }),
    );
  });
});

describe('the Base64 sentinel (properties)', () => {
  const bytesToBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

  it('decodes the canonical sentinel of any UTF-8 text to that text', () => {
    fc.assert(
      fc.property(value, (text) => {
        const raw = `=?base64?${bytesToBase64(new TextEncoder().encode(text))}?=`;
        expect(decodeHeaderValue(raw)).toEqual({ ok: true, value: text });
        // Whatever spelling arrives, encoding the value again gives one that decodes the same.
        expect(decodeHeaderValue(encodeHeaderValue(text))).toEqual({ ok: true, value: text });
      }),
    );
  });

  it('refuses a payload that is not UTF-8, and one with non-zero pad bits', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.nat(), (bytes, bump) => {
        const payload = bytesToBase64(bytes);
        const decoded = decodeHeaderValue(`=?base64?${payload}?=`);
        let utf8 = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          utf8 = false;
        }
        expect(decoded.ok).toBe(utf8);
        if (bytes.length % 3 === 0) return;
        // The last character before the padding carries pad bits: any other spelling of the
        // same bytes (same high bits, other low bits) is refused.
        const padBits = bytes.length % 3 === 1 ? 4 : 2;
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
        const at = payload.indexOf('=') - 1;
        const digit = alphabet.indexOf(payload[at] as string);
        const other = (digit & ~((1 << padBits) - 1)) | (1 + (bump % ((1 << padBits) - 1)));
        const altered = `${payload.slice(0, at)}${alphabet[other]}${payload.slice(at + 1)}`;
        expect(decodeHeaderValue(`=?base64?${altered}?=`)).toEqual({
          ok: false,
          reason: 'sentinel payload is not canonical base64',
        });
      }),
    );
  });

  it('never throws, and what it accepts is exactly one string it can send again', () => {
    const raw = fc.oneof(
      value,
      fc.string({ unit: fc.constantFrom(...'=?base64ABCabc+/019 \t') }),
      value.map((t) => `=?base64?${t}?=`),
    );
    fc.assert(
      fc.property(raw, (header) => {
        const decoded = decodeHeaderValue(header);
        if (!decoded.ok) return;
        expect(header).toMatch(LEGAL_FIELD_VALUE);
        expect(decodeHeaderValue(encodeHeaderValue(decoded.value))).toEqual(decoded);
      }),
    );
  });

  it('replaces a lone surrogate, as documented, so such a value cannot pass the check', () => {
    const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string(), lone, fc.string(), (before, surrogate, after) => {
        const text = before + surrogate + after;
        const decoded = decodeHeaderValue(encodeHeaderValue(text));
        expect(decoded).toEqual({ ok: true, value: `${before}\ufffd${after}` });
      }),
    );
  });
});
