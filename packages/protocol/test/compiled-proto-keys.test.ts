/**
 * An own `__proto__` key, as JSON.parse makes one: zod leaves it out of what an object or record
 * returns, so the compiled validators do too, without touching the value they were given.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validatorAt, WIRE_IR } from '../src/compiled/validator';
import { FEATURES_BY_VERSION } from '../src/wire/features';
import { buildWire } from '../src/wire/revision';

const VERSION = '2026-07-28';
const zodWire = buildWire(VERSION, FEATURES_BY_VERSION[VERSION]);
const ir = WIRE_IR.revisions[VERSION];
const callParams = ir?.methods.find((m) => m.method === 'tools/call')?.params as number;

/** The zod schema and the compiled validator of the same thing, both given `text` parsed. */
function parseBoth(zodSchema: z.ZodType | undefined, node: number, text: string) {
  const input = JSON.parse(text) as Record<string, unknown>;
  return { input, compiled: validatorAt(node).safeParse(input), zod: zodSchema?.safeParse(input) };
}
/** The `_meta` every modern request carries, with `extra` keys after it. */
const meta = (extra = '') =>
  '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' +
  '"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},' +
  `"io.modelcontextprotocol/clientCapabilities":{}${extra}}`;
const parseCall = (text: string) =>
  parseBoth(zodWire.methods.get('tools/call')?.params, callParams, text);

describe('an own __proto__ key', () => {
  it('is left out of a loose object and of _meta, as zod leaves it out', () => {
    const text = `{"name":"t","__proto__":{"x":1},"arguments":{"a":1},${meta(',"__proto__":""')}}`;
    const { input, compiled: got, zod } = parseCall(text);
    expect(zod?.success).toBe(true);
    expect(got.success).toBe(true);
    expect(got.data).toEqual(zod?.data);
    const params = got.data as Record<string, object>;
    expect(Object.keys(params).sort()).toEqual(['_meta', 'arguments', 'name']);
    expect(Object.keys(params._meta as object)).not.toContain('__proto__');
    expect(Object.getPrototypeOf(params._meta)).toBe(Object.prototype);
    // The value given is not changed.
    expect(JSON.stringify(input)).toBe(text);
  });

  it('copies only the path down to it, and keeps one inside an unchecked value', () => {
    const {
      input,
      compiled: got,
      zod,
    } = parseCall(
      `{"name":"t","arguments":{"deep":{"__proto__":1},"__proto__":2},${meta(',"__proto__":3')}}`,
    );
    expect(got.data).toEqual(zod?.data);
    const params = got.data as { arguments: object; _meta: object };
    const given = input as unknown as typeof params;
    expect(params).not.toBe(given);
    expect(params._meta).not.toBe(given._meta);
    // Tool arguments are checked against the tool's own schema, later: zod keeps them whole.
    expect(params.arguments).toBe(given.arguments);
    expect(Object.keys(params.arguments)).toEqual(['deep', '__proto__']);
  });

  it('does not walk into what the schema leaves unchecked, however deep', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const { input, compiled: got } = parseCall(
      `{"name":"t","arguments":{"deep":${deep}},${meta(',"__proto__":3')}}`,
    );
    expect(got.success).toBe(true);
    const params = got.data as { arguments: object; _meta: object };
    expect(params.arguments).toBe((input as unknown as typeof params).arguments);
    expect(Object.keys(params._meta)).not.toContain('__proto__');
  });

  it('is left out of a result _meta inside a message', () => {
    const definitions = ir?.definitions ?? {};
    const { compiled: got, zod } = parseBoth(
      zodWire.definitions.JSONRPCMessage,
      definitions.JSONRPCMessage as number,
      '{"jsonrpc":"2.0","id":"1","result":{"resultType":"","_meta":{"__proto__":""}}}',
    );
    expect(got.success).toBe(true);
    expect(got.data).toEqual(zod?.data);
    expect(Object.keys((got.data as { result: { _meta: object } }).result._meta)).toEqual([]);
  });

  it('returns a value without one as it came', () => {
    const { input, compiled: got } = parseCall(
      `{"name":"t","arguments":{"a":{"b":[1]}},${meta()}}`,
    );
    expect(got.data).toBe(input);
  });
});
