/**
 * `normalizeSchema`: host copies for OpenAI strict mode, Gemini and a portable subset, each
 * with the list of changes; the input is never mutated.
 */
import { describe, expect, it } from 'vitest';
import { normalizeSchema } from '../../src/schema/normalize';
import { omitNullOptionals } from '../../src/schema/optional-nulls';
import type { SchemaChange } from '../../src/schema/reports';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const TREE = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    root: { $ref: '#/$defs/node' },
    mode: { const: 'fast' },
  },
  required: ['root'],
  $defs: {
    node: {
      type: 'object',
      properties: {
        label: { type: ['string', 'null'] },
        children: { type: 'array', items: { $ref: '#/$defs/node' } },
      },
      additionalProperties: { type: 'string' },
    },
  },
});

/** The value at `keys` below `value` (undefined when a step is missing). */
function dig(value: unknown, ...keys: string[]): unknown {
  let node = value;
  for (const key of keys) node = (node as Record<string, unknown> | undefined)?.[key];
  return node;
}

function find(changes: readonly SchemaChange[], path: string, keyword: string) {
  return changes.filter((change) => change.path === path && change.keyword === keyword);
}

describe('normalizeSchema openai-strict', () => {
  const input = deepFreeze({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      name: { type: 'string', format: 'uri', minLength: 1 },
      age: { type: 'integer' },
      color: { type: 'string', enum: ['red', 'blue'] },
      when: {},
      pet: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      extra: {
        type: 'object',
        properties: { note: { type: 'string' } },
        patternProperties: { '^x': { type: 'string' } },
        additionalProperties: true,
      },
      ref: { $ref: '#/$defs/item' },
    },
    required: ['name'],
    $defs: { item: { type: 'object', properties: { id: { type: 'string' } } } },
  });

  it('closes every object, requires every property and makes optional ones nullable', () => {
    const { schema, changes } = normalizeSchema(input, 'openai-strict');
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        age: { type: ['integer', 'null'] },
        color: { type: ['string', 'null'], enum: ['red', 'blue', null] },
        when: { type: ['string', 'number', 'boolean', 'null'] },
        pet: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        tags: { type: ['array', 'null'], items: { type: 'string' } },
        extra: {
          type: ['object', 'null'],
          properties: { note: { type: ['string', 'null'] } },
          required: ['note'],
          additionalProperties: false,
        },
        ref: { anyOf: [{ $ref: '#/$defs/item' }, { type: 'null' }] },
      },
      required: ['name', 'age', 'color', 'when', 'pet', 'tags', 'extra', 'ref'],
      additionalProperties: false,
      $defs: {
        item: {
          type: 'object',
          properties: { id: { type: ['string', 'null'] } },
          required: ['id'],
          additionalProperties: false,
        },
      },
    });
    expect(find(changes, '', '$schema')[0]?.action).toBe('removed');
    expect(find(changes, '/properties/name', 'format')[0]?.action).toBe('removed');
    expect(find(changes, '/properties/pet', 'oneOf')[0]?.action).toBe('rewritten');
    expect(find(changes, '/properties/tags', 'uniqueItems')[0]?.action).toBe('removed');
    expect(find(changes, '/properties/extra', 'patternProperties')[0]?.action).toBe('removed');
    expect(find(changes, '/properties/extra', 'additionalProperties')[0]?.action).toBe('rewritten');
    expect(find(changes, '/properties/age', 'required')[0]?.action).toBe('added');
    expect(find(changes, '/$defs/item/properties/id', 'required')[0]?.action).toBe('added');
  });

  it('treats already nullable optional properties as required without widening them', () => {
    const { schema, changes } = normalizeSchema(
      { type: 'object', properties: { a: { type: ['string', 'null'] } } },
      'openai-strict',
    );
    expect(schema).toMatchObject({
      properties: { a: { type: ['string', 'null'] } },
      required: ['a'],
    });
    expect(find(changes, '/properties/a', 'required')).toEqual([
      expect.objectContaining({ action: 'rewritten' }),
    ]);
  });

  it('merges object allOf branches', () => {
    const { schema } = normalizeSchema(
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'number' } } },
        ],
      },
      'openai-strict',
    );
    expect(schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: ['number', 'null'] } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
  });

  it('never mutates its input', () => {
    const copy = JSON.parse(JSON.stringify(input));
    normalizeSchema(input, 'openai-strict');
    normalizeSchema(input, 'gemini');
    normalizeSchema(input, 'portable');
    expect(input).toEqual(copy);
  });

  it('gives omitted optional properties back: omitNullOptionals drops the added nulls', () => {
    const { changes } = normalizeSchema(
      {
        type: 'object',
        properties: {
          a: { type: 'string' },
          list: {
            type: 'array',
            items: { type: 'object', properties: { b: { type: 'string' }, c: { type: 'number' } } },
          },
        },
        required: ['list'],
      },
      'openai-strict',
    );
    const args = {
      a: null,
      list: [
        { b: null, c: 1 },
        { b: 'x', c: null },
      ],
    };
    expect(omitNullOptionals(args, changes)).toEqual({ list: [{ c: 1 }, { b: 'x' }] });
    expect(args.a).toBeNull();
  });
});

describe('normalizeSchema gemini', () => {
  it('inlines references, cuts recursion at the depth asked, and rewrites unsupported keywords', () => {
    const { schema, changes } = normalizeSchema(TREE, { profile: 'gemini', maxRefDepth: 2 });
    expect(dig(schema, 'properties', 'mode')).toEqual({ enum: ['fast'], type: 'string' });
    const level1 = dig(schema, 'properties', 'root');
    expect(dig(level1, 'additionalProperties')).toBeUndefined();
    expect(dig(level1, 'properties', 'label')).toEqual({ type: 'string', nullable: true });
    const level2 = dig(level1, 'properties', 'children', 'items');
    expect(dig(level2, 'type')).toBe('object');
    // The third expansion of the same reference is cut: any value below.
    expect(dig(level2, 'properties', 'children', 'items')).toEqual({});
    expect(schema.$defs).toBeUndefined();
    expect(schema.$schema).toBeUndefined();
    expect(changes).toContainEqual(
      expect.objectContaining({
        path: '/properties/root/properties/children/items/properties/children/items',
        keyword: '$ref',
        action: 'removed',
        detail: expect.stringContaining('recursive #/$defs/node cut after 2 levels'),
      }),
    );
    expect(find(changes, '/properties/mode', 'const')[0]?.action).toBe('rewritten');
    expect(find(changes, '/properties/root', 'additionalProperties')[0]?.action).toBe('removed');
  });

  it('turns null unions into nullable and drops non-string enums and odd formats', () => {
    const { schema, changes } = normalizeSchema(
      {
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] },
          b: { type: 'integer', enum: [1, 2], exclusiveMinimum: 0 },
          c: { type: 'string', format: 'date-time', examples: ['2020-01-01T00:00:00Z'] },
        },
        additionalProperties: false,
      },
      'gemini',
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true },
        b: { type: 'integer', minimum: 1 },
        c: { type: 'string', format: 'date-time', example: '2020-01-01T00:00:00Z' },
      },
    });
    expect(find(changes, '/properties/b', 'enum')[0]?.action).toBe('removed');
    expect(find(changes, '/properties/a', 'format')[0]?.action).toBe('removed');
  });
});

describe('normalizeSchema portable', () => {
  it('drops metadata and inlines references, keeping everything else', () => {
    const { schema, changes } = normalizeSchema(TREE, 'portable');
    expect(schema.$schema).toBeUndefined();
    expect(schema.$defs).toBeUndefined();
    const root = dig(schema, 'properties', 'root');
    expect(dig(root, 'additionalProperties')).toEqual({ type: 'string' });
    expect(dig(root, 'properties', 'label')).toEqual({ type: ['string', 'null'] });
    expect((schema.properties as Record<string, unknown>).mode).toEqual({ const: 'fast' });
    expect(find(changes, '/properties/root', '$ref')[0]?.action).toBe('inlined');
    expect(changes.filter((change) => change.detail.includes('cut after 3 levels'))).toHaveLength(
      1,
    );
  });

  it('leaves a reference-free schema unchanged', () => {
    const plain = { type: 'object', properties: { a: { type: 'string', pattern: '^a' } } };
    expect(normalizeSchema(plain, 'portable')).toEqual({ schema: plain, changes: [] });
  });
});
