import type { Tool } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../../src/catalog/tool-catalog';

const tool = (name: string, inputSchema: Record<string, unknown>, extra: Partial<Tool> = {}) =>
  ({ name, inputSchema: { type: 'object', ...inputSchema }, ...extra }) as Tool;

describe('ToolCatalog.accept', () => {
  it('keeps tools with valid header annotations and records their parameters', () => {
    const catalog = new ToolCatalog();
    const { tools, excluded } = catalog.accept([
      tool('plain', {}),
      tool('regional', {
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          opts: {
            type: 'object',
            properties: { dry: { type: ['boolean'], 'x-mcp-header': 'Dry-Run' } },
          },
          count: { type: 'integer' },
        },
      }),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['plain', 'regional']);
    expect(excluded).toEqual([]);
    expect(catalog.headerParams('plain')).toEqual([]);
    expect(catalog.headerParams('regional')).toEqual([
      { header: 'Region', path: ['region'], type: 'string' },
      { header: 'Dry-Run', path: ['opts', 'dry'], type: 'boolean' },
    ]);
    expect(catalog.get('regional')?.name).toBe('regional');
    expect(catalog.headerParams('unknown')).toBeUndefined();
    expect(catalog.get('unknown')).toBeUndefined();
  });

  it.each([
    [
      'a non-primitive property',
      {
        properties: { tags: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Tags' } },
      },
    ],
    [
      'duplicate names (case-insensitive)',
      {
        properties: {
          a: { type: 'string', 'x-mcp-header': 'Key' },
          b: { type: 'string', 'x-mcp-header': 'key' },
        },
      },
    ],
    ['a name that is no token', { properties: { a: { type: 'string', 'x-mcp-header': 'a b' } } }],
    [
      'an annotation under items',
      {
        properties: {
          list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } },
        },
      },
    ],
  ])('excludes a tool with %s', (_label, schema) => {
    const catalog = new ToolCatalog();
    const { tools, excluded } = catalog.accept([tool('bad', schema), tool('good', {})]);
    expect(tools.map((t) => t.name)).toEqual(['good']);
    expect(excluded).toHaveLength(1);
    expect(excluded[0]?.name).toBe('bad');
    expect(excluded[0]?.errors.length).toBeGreaterThan(0);
    expect(catalog.get('bad')).toBeUndefined();
    expect(catalog.headerParams('bad')).toBeUndefined();
  });

  it('a later invalid version of a tool removes the stored one; clear() forgets all', () => {
    const catalog = new ToolCatalog();
    catalog.accept([tool('t', {}), tool('u', {})]);
    catalog.accept([tool('t', { properties: { x: { 'x-mcp-header': 'X' } } })]);
    expect(catalog.get('t')).toBeUndefined();
    expect(catalog.get('u')).toBeDefined();
    catalog.clear();
    expect(catalog.get('u')).toBeUndefined();
  });
});

describe('ToolCatalog.validateOutput', () => {
  const weather = tool(
    'weather',
    {},
    {
      outputSchema: {
        type: 'object',
        properties: {
          temperature: { type: 'number' },
          unit: { enum: ['C', 'F'] },
        },
        required: ['temperature'],
      },
    },
  );

  it('passes matching structured content', () => {
    const catalog = new ToolCatalog();
    catalog.accept([weather]);
    expect(catalog.validateOutput('weather', { temperature: 21.5, unit: 'C' })).toEqual({
      ok: true,
    });
    // Cached validator, same answer.
    expect(catalog.validateOutput('weather', { temperature: 3 })).toEqual({ ok: true });
  });

  it('reports every problem of mismatching content', () => {
    const catalog = new ToolCatalog();
    catalog.accept([weather]);
    const check = catalog.validateOutput('weather', { temperature: 'hot', unit: 'K' });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors.length).toBeGreaterThanOrEqual(2);
    expect(check.errors.join('\n')).toMatch(/temperature/);
    expect(check.errors.join('\n')).toMatch(/unit/);
  });

  it('fails missing structured content when an output schema is declared', () => {
    const catalog = new ToolCatalog();
    catalog.accept([weather]);
    expect(catalog.validateOutput('weather', undefined).ok).toBe(false);
  });

  it('passes tools without an output schema and tools not seen', () => {
    const catalog = new ToolCatalog();
    catalog.accept([tool('free', {})]);
    expect(catalog.validateOutput('free', { anything: true })).toEqual({ ok: true });
    expect(catalog.validateOutput('nobody', 42)).toEqual({ ok: true });
  });

  it('reports an output schema that cannot be used', () => {
    const catalog = new ToolCatalog();
    catalog.accept([
      tool('broken', {}, { outputSchema: { type: 'object', $ref: 'https://example.com/remote' } }),
    ]);
    const check = catalog.validateOutput('broken', {});
    expect(check.ok).toBe(false);
  });
});
