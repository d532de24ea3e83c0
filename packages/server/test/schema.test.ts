import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSchema, compileToolInputSchema } from '../src/schema/compile';

/** A hand-written Standard Schema (not zod) that also implements Standard JSON Schema. */
function evenNumberSchema(withJsonSchema: boolean) {
  const props: StandardSchemaV1.Props<unknown, { n: number }> &
    Partial<StandardJSONSchemaV1.Props<unknown, { n: number }>> = {
    version: 1,
    vendor: 'handmade',
    validate: (value) => {
      const n = (value as { n?: unknown } | null)?.n;
      return typeof n === 'number' && n % 2 === 0
        ? { value: { n } }
        : { issues: [{ message: 'must be an even number', path: [{ key: 'n' }] }] };
    },
    ...(withJsonSchema
      ? {
          jsonSchema: {
            input: (options) => ({
              $schema: 'https://json-schema.org/draft/2020-12/schema',
              type: 'object',
              properties: { n: { type: 'integer', multipleOf: 2 } },
              required: ['n'],
              'x-target': options.target,
            }),
            output: () => ({ type: 'object' }),
          },
        }
      : {}),
  };
  return { '~standard': props };
}

describe('zod 4 schemas', () => {
  const schema = z.object({
    city: z.string().min(2).describe('City name'),
    days: z.number().int().default(3),
  });

  it('converts once, for input without the default $schema, and validates with zod', async () => {
    const compiled = compileToolInputSchema(schema, 'weather');
    expect(compiled.jsonSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2, description: 'City name' },
        days: {
          type: 'integer',
          default: 3,
          minimum: Number.MIN_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        },
      },
      required: ['city'],
    });
    expect(Object.isFrozen(compiled.jsonSchema)).toBe(true);
    expect(await compiled.validate({ city: 'Oslo' })).toEqual({
      ok: true,
      value: { city: 'Oslo', days: 3 },
    });
    const failed = await compiled.validate({ city: 'O', days: 1.5 });
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.issues).toEqual([
      expect.stringMatching(/^city: /),
      expect.stringMatching(/^days: /),
    ]);
  });

  it('describes the output side for output schemas', () => {
    const compiled = compileSchema(schema, 'output', 'weather output');
    expect(compiled.jsonSchema.required).toEqual(['city', 'days']);
    expect(compiled.jsonSchema.additionalProperties).toBe(false);
  });

  it('accepts a raw shape as shorthand for z.object', async () => {
    const compiled = compileToolInputSchema({ a: z.string(), b: z.boolean().optional() }, 'shape');
    expect(compiled.jsonSchema).toMatchObject({ type: 'object', required: ['a'] });
    expect((await compiled.validate({ a: 1 })).ok).toBe(false);
  });

  it('rejects what JSON Schema cannot express', () => {
    expect(() => compileSchema(z.object({ when: z.date() }), 'input', 'dated')).toThrow(
      /dated: the schema cannot be expressed as JSON Schema/,
    );
  });

  it('rejects a tool input schema whose root is not an object', () => {
    expect(() => compileToolInputSchema(z.string(), 'text')).toThrow(/root "type": "object"/);
    expect(() =>
      compileToolInputSchema(z.union([z.object({ a: z.string() }), z.object({})]), 'union'),
    ).toThrow(/root "type": "object"/);
  });
});

describe('other Standard Schemas', () => {
  it('uses ~standard.jsonSchema for the wire and ~standard.validate for values', async () => {
    const compiled = compileToolInputSchema(evenNumberSchema(true), 'even');
    expect(compiled.jsonSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', multipleOf: 2 } },
      required: ['n'],
      'x-target': 'draft-2020-12',
    });
    expect(await compiled.validate({ n: 4 })).toEqual({ ok: true, value: { n: 4 } });
    expect(await compiled.validate({ n: 3 })).toEqual({
      ok: false,
      issues: ['n: must be an even number'],
    });
  });

  it('supports asynchronous validation', async () => {
    const standard = evenNumberSchema(true);
    const sync = standard['~standard'].validate;
    const asyncSchema = {
      '~standard': { ...standard['~standard'], validate: async (v: unknown) => sync(v) },
    };
    const compiled = compileToolInputSchema(asyncSchema, 'async');
    expect(compiled.validate({ n: 2 })).toBeInstanceOf(Promise);
    expect(await compiled.validate({ n: 1 })).toMatchObject({ ok: false });
  });

  it('rejects a Standard Schema without JSON Schema output, naming the vendor', () => {
    expect(() => compileSchema(evenNumberSchema(false), 'input', 'plain')).toThrow(
      /plain: this handmade Standard Schema cannot produce JSON Schema/,
    );
  });

  it('rejects a zod 3 schema with a clear message', () => {
    const zod3Like = { _def: {}, '~standard': { version: 1, vendor: 'zod', validate: () => ({}) } };
    expect(() => compileSchema(zod3Like, 'input', 'old')).toThrow(
      /zod 3 schemas are not supported/,
    );
  });
});

describe('raw JSON Schema', () => {
  const shape = {
    type: 'object',
    $defs: {
      point: {
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x', 'y'],
      },
    },
    properties: {
      at: { $ref: '#/$defs/point' },
      kind: { oneOf: [{ const: 'circle' }, { const: 'square' }] },
      size: { type: 'integer', minimum: 1 },
    },
    required: ['at', 'kind'],
    additionalProperties: false,
  };

  it('keeps the schema as given and validates $ref, $defs and oneOf', async () => {
    const compiled = compileToolInputSchema(shape, 'shape');
    expect(compiled.jsonSchema).toEqual(shape);
    expect(compiled.jsonSchema).not.toBe(shape);
    const value = { at: { x: 1, y: 2 }, kind: 'circle' };
    expect(await compiled.validate(value)).toEqual({ ok: true, value });
    const failed = await compiled.validate({ at: { x: 1 }, kind: 'oval', size: 0, extra: 1 });
    expect(failed.ok).toBe(false);
    const issues = failed.ok ? [] : failed.issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        'at: Instance does not have required property "y".',
        'size: 0 is less than 1.',
        'Property "extra" does not match additional properties schema.',
      ]),
    );
    expect(issues.some((issue) => issue.startsWith('kind: '))).toBe(true);
    expect(issues.some((issue) => issue.includes('A subschema had errors'))).toBe(false);
  });

  it('accepts the dialects the validator implements and validates by them', async () => {
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { n: { type: 'number' } },
      properties: { n: { $ref: '#/definitions/n' } },
    };
    const compiled = compileToolInputSchema(draft7, 'draft7');
    expect((await compiled.validate({ n: 'x' })).ok).toBe(false);
    expect((await compiled.validate({ n: 1 })).ok).toBe(true);
  });

  it('resolves references through $id, $anchor and embedded resources without fetching', async () => {
    const schema = {
      $id: 'https://example.com/schemas/order',
      type: 'object',
      properties: {
        item: { $ref: 'item' },
        note: { $ref: '#text' },
      },
      $defs: {
        item: { $id: 'item', type: 'object', properties: { sku: { type: 'string' } } },
        text: { $anchor: 'text', type: 'string', maxLength: 3 },
      },
    };
    const compiled = compileToolInputSchema(schema, 'order');
    expect((await compiled.validate({ item: { sku: 'a' }, note: 'ok' })).ok).toBe(true);
    expect(await compiled.validate({ item: { sku: 1 }, note: 'too long' })).toEqual({
      ok: false,
      issues: expect.arrayContaining([
        expect.stringMatching(/^item\/sku: /),
        expect.stringMatching(/^note: /),
      ]),
    });
  });

  it.each([
    [
      { type: 'object', $schema: 'https://example.com/my-dialect' },
      /unsupported JSON Schema dialect/,
    ],
    [
      { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } },
      /\$ref "https:\/\/example.com\/a.json" does not resolve inside the schema/,
    ],
    [{ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, /does not resolve/],
    [{ type: 'object', properties: { a: { $dynamicRef: '#x' } } }, /\$dynamicRef is not supported/],
    [['not', 'an', 'object'], /must be an object/],
  ])('rejects an unusable schema (%#)', (schema, message) => {
    expect(() => compileToolInputSchema(schema, 'bad')).toThrow(message);
  });

  it('rejects a cyclic value', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(() => compileToolInputSchema(cyclic, 'cyclic')).toThrow(/not JSON/);
  });

  it('gives a tool without a schema the recommended no-argument schema', async () => {
    const compiled = compileToolInputSchema(undefined, 'none');
    expect(compiled.jsonSchema).toEqual({ type: 'object', additionalProperties: false });
    expect((await compiled.validate({})).ok).toBe(true);
    expect((await compiled.validate({ surprise: 1 })).ok).toBe(false);
  });

  it('allows any schema as an output schema, arrays included', async () => {
    const compiled = compileSchema({ type: 'array', items: { type: 'string' } }, 'output', 'out');
    expect((await compiled.validate(['a'])).ok).toBe(true);
    expect((await compiled.validate([1])).ok).toBe(false);
  });
});
