import { describe, expect, it } from 'vitest';
import { collectHeaderParams } from '../src/x-mcp-header';

function errorsOf(schema: unknown): string[] {
  const result = collectHeaderParams(schema);
  if (result.ok) throw new Error('expected the schema to be rejected');
  return result.errors;
}

const str = (header: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'string',
  'x-mcp-header': header,
  ...extra,
});

describe('collectHeaderParams: valid schemas', () => {
  it('returns no params for a schema without annotations', () => {
    expect(collectHeaderParams({ type: 'object', additionalProperties: false })).toEqual({
      ok: true,
      params: [],
    });
    expect(collectHeaderParams(true)).toEqual({ ok: true, params: [] });
    expect(collectHeaderParams(undefined)).toEqual({ ok: true, params: [] });
  });

  // streamable-http.mdx and tools.mdx: the execute_sql example tool.
  it('accepts the execute_sql example', () => {
    const schema = {
      type: 'object',
      properties: {
        region: {
          type: 'string',
          description: 'The region to execute the query in',
          'x-mcp-header': 'Region',
        },
        query: { type: 'string', description: 'The SQL query to execute' },
      },
      required: ['region', 'query'],
    };
    expect(collectHeaderParams(schema)).toEqual({
      ok: true,
      params: [{ header: 'Region', path: ['region'], type: 'string' }],
    });
  });

  it('accepts nested properties chains and all three types', () => {
    const schema = {
      type: 'object',
      properties: {
        target: {
          type: 'object',
          properties: {
            tenant: {
              type: 'object',
              properties: { id: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } },
            },
            dryRun: { type: ['boolean'], 'x-mcp-header': 'Dry_Run' },
          },
        },
        method: str("Method!#$%&'*+-.^_`|~"),
      },
    };
    expect(collectHeaderParams(schema)).toEqual({
      ok: true,
      params: [
        { header: 'Tenant-Id', path: ['target', 'tenant', 'id'], type: 'integer' },
        { header: 'Dry_Run', path: ['target', 'dryRun'], type: 'boolean' },
        { header: "Method!#$%&'*+-.^_`|~", path: ['method'], type: 'string' },
      ],
    });
  });

  it('ignores look-alikes in data keywords and properties named x-mcp-header', () => {
    const schema = {
      type: 'object',
      properties: { 'x-mcp-header': { type: 'string', default: { 'x-mcp-header': 'A' } } },
      examples: [{ 'x-mcp-header': 'B' }],
      const: { 'x-mcp-header': 'C' },
      enum: [{ 'x-mcp-header': 'D' }],
      dependentRequired: { 'x-mcp-header': ['a'] },
      $defs: { 'x-mcp-header': { type: 'string' } },
    };
    expect(collectHeaderParams(schema)).toEqual({ ok: true, params: [] });
  });
});

describe('collectHeaderParams: forbidden locations', () => {
  const region = str('Region');
  const cases: Record<string, unknown> = {
    root: { type: 'object', 'x-mcp-header': 'Region' },
    items: { type: 'object', properties: { list: { type: 'array', items: region } } },
    'items nested properties': {
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'object', properties: { r: region } } } },
    },
    prefixItems: { type: 'object', properties: { t: { type: 'array', prefixItems: [region] } } },
    contains: { type: 'object', properties: { t: { type: 'array', contains: region } } },
    anyOf: { type: 'object', anyOf: [{ properties: { r: region } }] },
    oneOf: { type: 'object', properties: { r: { oneOf: [region] } } },
    allOf: { type: 'object', allOf: [{ type: 'object', properties: { r: region } }] },
    not: { type: 'object', not: { properties: { r: region } } },
    if: { type: 'object', if: { properties: { r: region } } },
    // Built from entries: a literal `then` key trips the thenable lint rule.
    'then branch': {
      type: 'object',
      ...Object.fromEntries([['then', { properties: { r: region } }]]),
    },
    else: { type: 'object', else: { properties: { r: region } } },
    $defs: { type: 'object', $defs: { R: region }, properties: { r: { $ref: '#/$defs/R' } } },
    definitions: { type: 'object', definitions: { R: region } },
    additionalProperties: { type: 'object', additionalProperties: region },
    patternProperties: { type: 'object', patternProperties: { '^r': region } },
    propertyNames: { type: 'object', propertyNames: region },
    dependentSchemas: { type: 'object', dependentSchemas: { a: { properties: { r: region } } } },
    unevaluatedProperties: { type: 'object', unevaluatedProperties: region },
    'unknown keyword': { type: 'object', 'x-vendor': { nested: region } },
  };

  it.each(Object.entries(cases))('rejects an annotation under %s', (_name, schema) => {
    const errors = errorsOf(schema);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/x-mcp-header is (allowed only|not allowed on the schema root)/);
  });

  it('does not follow $ref to accept an annotation', () => {
    const schema = {
      type: 'object',
      properties: { r: { $ref: '#/$defs/R', 'x-mcp-header': 'Region' } },
      $defs: { R: { type: 'string' } },
    };
    expect(errorsOf(schema)).toEqual([
      '#/properties/r: property declares no "type"; string, integer or boolean is required',
    ]);
  });

  it('reports the location as a JSON pointer', () => {
    const schema = { type: 'object', properties: { 'a/b~c': { type: 'array', items: str('R') } } };
    expect(errorsOf(schema)[0]).toMatch(/^#\/properties\/a~1b~0c\/items:/);
  });
});

describe('collectHeaderParams: values and types', () => {
  const one = (prop: unknown) => errorsOf({ type: 'object', properties: { p: prop } });

  it('rejects empty, non-token, control-character and non-string values', () => {
    // SEP-2243 "Invalid x-mcp-header Values", plus CR/LF and non-strings.
    for (const bad of [
      '',
      'My Region',
      'Region:Primary',
      'Région',
      'Region\t1',
      'a\r\nb',
      'a\nb',
      'a"b',
      'a/b',
    ]) {
      expect(one(str(bad)), JSON.stringify(bad)).toHaveLength(1);
    }
    for (const bad of [42, null, true, ['Region'], { name: 'Region' }]) {
      expect(one(str(bad))[0]).toMatch(/must be a string/);
    }
  });

  it('rejects duplicates case-insensitively, across nesting levels', () => {
    const errors = errorsOf({
      type: 'object',
      properties: {
        a: str('Region'),
        b: { type: 'object', properties: { c: str('REGION') } },
        d: str('region'),
      },
    });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/duplicates the one at #\/properties\/a$/);
  });

  it('allows Method and Name, which become Mcp-Param-Method and Mcp-Param-Name', () => {
    const result = collectHeaderParams({
      type: 'object',
      properties: { m: str('Method'), n: str('Name') },
    });
    expect(result.ok).toBe(true);
  });

  it('rejects number, array, object, null, union and untyped properties', () => {
    expect(one({ type: 'number', 'x-mcp-header': 'N' })[0]).toMatch(/"number" is not permitted/);
    for (const type of ['array', 'object', 'null', 'Integer']) {
      expect(one({ type, 'x-mcp-header': 'N' })[0]).toMatch(/is not permitted/);
    }
    for (const type of [['string', 'null'], ['integer', 'string'], []]) {
      expect(one({ type, 'x-mcp-header': 'N' })).toHaveLength(1);
    }
    expect(one({ 'x-mcp-header': 'N', enum: ['a'] })[0]).toMatch(/declares no "type"/);
    expect(one({ type: 7, 'x-mcp-header': 'N' })).toHaveLength(1);
  });

  it('collects every error, not only the first', () => {
    const errors = errorsOf({
      type: 'object',
      properties: { a: { type: 'number', 'x-mcp-header': 'a b' } },
      items: str('X'),
    });
    expect(errors).toHaveLength(3);
  });
});

describe('collectHeaderParams: hostile input', () => {
  it('stops on deep nesting', () => {
    let schema: Record<string, unknown> = str('Deep');
    for (let i = 0; i < 10_000; i++) schema = { type: 'object', properties: { p: schema } };
    expect(errorsOf(schema)[0]).toMatch(/deeper than 64/);
  });

  it('accepts an annotation just inside the depth limit', () => {
    let schema: Record<string, unknown> = str('Deep');
    for (let i = 0; i < 31; i++) schema = { type: 'object', properties: { p: schema } };
    const result = collectHeaderParams(schema);
    expect(result.ok && result.params[0]?.path.length).toBe(31);
  });

  it('terminates on cycles', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    const arr: unknown[] = [];
    arr.push(arr);
    expect(errorsOf(schema)[0]).toMatch(/cyclic/);
    expect(errorsOf({ type: 'object', anyOf: arr })[0]).toMatch(/cyclic/);
  });

  it('terminates on a wide shared DAG', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 30; i++) node = { allOf: [node, node] };
    expect(errorsOf({ type: 'object', properties: { p: node } })[0]).toMatch(
      /more than 100000 nodes/,
    );
  });
});
