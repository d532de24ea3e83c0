/**
 * A raw zod shape, read member by member without the server importing zod, must mean what
 * `z.object(shape)` means: the same JSON Schema on both sides, and the same verdict, value and
 * issue paths and messages for any value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSchema } from '../src/schema/compile';

const User = z.string().meta({ id: 'ShapeTestUser' });

const SHAPES: Record<string, z.core.$ZodShape> = {
  plain: { a: z.string().describe('A'), b: z.number().int().optional() },
  defaults: { n: z.number().default(3), s: z.string().optional().default('x'), t: z.boolean() },
  nested: { inner: z.object({ x: z.string() }), list: z.array(z.number()).max(2).optional() },
  shared: { u: User, v: User.optional() },
  unknown: { any: z.unknown(), maybe: z.string().nullable() },
};

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.record(
    {
      a: fc.oneof(fc.string(), fc.integer()),
      b: fc.oneof(fc.integer(), fc.double(), fc.constant(undefined)),
      n: fc.oneof(fc.integer(), fc.string(), fc.constant(undefined)),
      s: fc.oneof(fc.string(), fc.constant(undefined)),
      t: fc.oneof(fc.boolean(), fc.constant(null)),
      inner: fc.oneof(fc.record({ x: fc.oneof(fc.string(), fc.integer()) }), fc.string()),
      list: fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
      u: fc.oneof(fc.string(), fc.integer()),
      v: fc.oneof(fc.string(), fc.constant(undefined)),
      any: fc.jsonValue({ maxDepth: 1 }),
      maybe: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
      extra: fc.string(),
    },
    { requiredKeys: [] },
  ),
);

const issueText = (result: { ok: boolean; issues?: string[] }) => (result.ok ? [] : result.issues);

describe('a raw zod shape', () => {
  it.each(Object.keys(SHAPES))('%s: the JSON Schema of z.object(shape), both sides', (name) => {
    const shape = SHAPES[name] as z.core.$ZodShape;
    for (const io of ['input', 'output'] as const) {
      const expected = compileSchema(z.object(shape), io, name).jsonSchema;
      expect(compileSchema(shape, io, name).jsonSchema).toEqual(expected);
    }
  });

  it.each(Object.keys(SHAPES))('%s: validates as z.object(shape) does', async (name) => {
    const shape = SHAPES[name] as z.core.$ZodShape;
    const fromShape = compileSchema(shape, 'input', name);
    const fromObject = compileSchema(z.object(shape), 'input', name);
    await fc.assert(
      fc.asyncProperty(anyValue, async (value) => {
        const actual = await fromShape.validate(value);
        const expected = await fromObject.validate(value);
        expect(actual.ok).toBe(expected.ok);
        if (expected.ok && actual.ok) expect(actual.value).toEqual(expected.value);
        else expect(issueText(actual)).toEqual(issueText(expected));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a zod/mini schema, which cannot produce JSON Schema, and says what to pass', async () => {
    const mini = await import('zod/mini');
    expect(() => compileSchema(mini.object({ a: mini.string() }), 'input', 'mini')).toThrow(
      /zod\/mini schemas lack ~standard\.jsonSchema/,
    );
  });
});
