/**
 * `convertSchema`: zod 4 (lossy parts reported, never thrown), other Standard Schemas and raw
 * JSON Schema, each validated with the original schema.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { convertSchema } from '../../src/schema/convert';

describe('convertSchema with zod 4', () => {
  const lossy = z.object({
    when: z.date(),
    count: z.string().transform((value) => value.length),
    code: z.string().refine((value) => value.startsWith('x'), 'must start with x'),
    big: z.bigint().optional(),
    tags: z.set(z.string()),
    limit: z.number().default(10),
    level: z.number().pipe(z.number().min(2)),
    name: z.string().trim(),
  });

  it('converts the input side and lists every loss by JSON Pointer', () => {
    const converted = convertSchema(lossy, 'input', 'test');
    expect(converted.jsonSchema).toMatchObject({
      type: 'object',
      properties: {
        when: {},
        count: { type: 'string' },
        code: { type: 'string' },
        limit: { type: 'number', default: 10 },
      },
    });
    expect(converted.jsonSchema.$schema).toBeUndefined();
    expect(Object.isFrozen(converted.jsonSchema)).toBe(true);
    const byPath = Object.fromEntries(converted.losses.map((loss) => [loss.path, loss.what]));
    expect(Object.keys(byPath).sort()).toEqual([
      '/properties/big',
      '/properties/code',
      '/properties/count',
      '/properties/level',
      '/properties/name',
      '/properties/tags',
      '/properties/when',
    ]);
    expect(byPath['/properties/when']).toMatch(/z\.date\(\)/);
    expect(byPath['/properties/count']).toMatch(/transform/);
    expect(byPath['/properties/code']).toMatch(/refine/);
    expect(byPath['/properties/level']).toMatch(/pipe/);
  });

  it('reports a transform on the output side as unrepresentable', () => {
    const converted = convertSchema(
      z.object({ n: z.string().transform((value) => value.length) }),
      'output',
      'test',
    );
    expect(converted.jsonSchema).toMatchObject({ properties: { n: {} } });
    expect(converted.losses).toEqual([
      { path: '/properties/n', what: expect.stringMatching(/^transform/) },
    ]);
  });

  it('validates with zod: defaults, transforms and refines apply', async () => {
    const converted = convertSchema(lossy, 'input', 'test');
    const ok = await converted.validate({
      when: new Date(0),
      count: 'abc',
      code: 'xyz',
      tags: new Set(['a']),
      level: 3,
      name: '  Ada ',
    });
    expect(ok).toMatchObject({ ok: true, value: { count: 3, limit: 10, name: 'Ada' } });
    const bad = await converted.validate({ when: 'no', count: 1, code: 'abc', tags: [], level: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.issues.some((issue) => issue.startsWith('code: must start with x'))).toBe(true);
      expect(bad.issues.some((issue) => issue.startsWith('level:'))).toBe(true);
    }
  });

  it('accepts a raw zod shape and reports nothing for a representable schema', () => {
    const converted = convertSchema({ a: z.string(), b: z.number().optional() }, 'input', 't');
    expect(converted.jsonSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
    });
    expect(converted.losses).toEqual([]);
  });

  it('keeps recursive schemas as local references', () => {
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const converted = convertSchema(Node, 'input', 't');
    expect(converted.jsonSchema).toMatchObject({
      properties: { children: { type: 'array', items: { $ref: '#' } } },
    });
  });
});

describe('convertSchema with other schema kinds', () => {
  it('validates raw JSON Schema and reports no losses', async () => {
    const converted = convertSchema(
      { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
      'input',
      't',
    );
    expect(converted.losses).toEqual([]);
    expect(await converted.validate({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect((await converted.validate({ a: 'x' })).ok).toBe(false);
  });

  it('rejects a JSON Schema whose $ref does not resolve inside it', () => {
    expect(() =>
      convertSchema(
        { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
        'input',
        'T',
      ),
    ).toThrow(TypeError);
  });

  it('uses a Standard Schema with JSON Schema output', async () => {
    const standard: StandardSchemaV1<unknown, { n: number }> & StandardJSONSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: (value) =>
          typeof (value as { n?: unknown }).n === 'number'
            ? { value: value as { n: number } }
            : { issues: [{ message: 'n must be a number', path: ['n'] }] },
        jsonSchema: {
          input: () => ({ type: 'object', properties: { n: { type: 'number' } } }),
          output: () => ({ type: 'object', properties: { n: { type: 'number' } } }),
        },
      },
    } as StandardSchemaV1<unknown, { n: number }> & StandardJSONSchemaV1;
    const converted = convertSchema(standard, 'input', 't');
    expect(converted.jsonSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
    expect(await converted.validate({ n: 'x' })).toEqual({
      ok: false,
      issues: ['n: n must be a number'],
    });
  });
});
