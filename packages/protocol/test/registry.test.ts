import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildRequestMeta } from '../src/meta';
import type {
  CallToolRequestParams,
  CallToolResult,
  DiscoverResult,
  ListToolsResult,
} from '../src/method-types';
import { findMethod, getWire, parseParams, parseResult } from '../src/registry';
import type { ContentBlock } from '../src/types';
import { SUPPORTED_VERSIONS } from '../src/versions';

const meta = buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} });

describe('per-revision registry', () => {
  it('builds each revision once', () => {
    expect(getWire('2026-07-28')).toBe(getWire('2026-07-28'));
    for (const version of SUPPORTED_VERSIONS) expect(getWire(version).version).toBe(version);
  });

  it('answers which methods exist in which revision', () => {
    const has = (version: (typeof SUPPORTED_VERSIONS)[number], method: string) =>
      findMethod(version, method) !== undefined;
    expect(has('2026-07-28', 'server/discover')).toBe(true);
    expect(has('2026-07-28', 'subscriptions/listen')).toBe(true);
    expect(has('2026-07-28', 'initialize')).toBe(false);
    expect(has('2026-07-28', 'ping')).toBe(false);
    expect(has('2026-07-28', 'sampling/createMessage')).toBe(false);
    expect(getWire('2026-07-28').inputRequests.has('sampling/createMessage')).toBe(true);
    expect(has('2025-11-25', 'tasks/get')).toBe(true);
    expect(has('2025-06-18', 'tasks/get')).toBe(false);
    expect(has('2025-06-18', 'elicitation/create')).toBe(true);
    expect(has('2024-11-05', 'elicitation/create')).toBe(false);
    expect(has('2024-11-05', 'server/discover')).toBe(false);
  });

  it('marks cacheable and MRTR methods in the modern revision only', () => {
    expect(findMethod('2026-07-28', 'tools/list')?.cacheable).toBe(true);
    expect(findMethod('2026-07-28', 'tools/call')?.inputRequired).toBe(true);
    expect(findMethod('2025-11-25', 'tools/list')?.cacheable).toBe(false);
    expect(findMethod('2025-11-25', 'tools/call')?.inputRequired).toBe(false);
  });
});

describe('parseParams', () => {
  const modern = getWire('2026-07-28');
  it('accepts a valid modern request and keeps unknown keys', () => {
    const parsed = parseParams(modern, 'tools/call', {
      _meta: meta,
      name: 'echo',
      arguments: { a: 1 },
      'x-ext': true,
    });
    expect(parsed).toEqual({
      ok: true,
      value: { _meta: meta, name: 'echo', arguments: { a: 1 }, 'x-ext': true },
    });
  });
  it('answers -32602 for a modern request without _meta', () => {
    const parsed = parseParams(modern, 'tools/list', {});
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe(-32602);
      expect(parsed.error.message).toContain('_meta');
    }
  });
  it('answers -32601 for a method the revision does not have', () => {
    const parsed = parseParams(modern, 'ping', undefined);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe(-32601);
  });
  it('lets legacy list requests omit params', () => {
    expect(parseParams(getWire('2025-06-18'), 'tools/list', undefined)).toEqual({
      ok: true,
      value: undefined,
    });
  });
});

describe('parseResult', () => {
  const modern = getWire('2026-07-28');
  it('accepts both branches of an MRTR result', () => {
    expect(parseResult(modern, 'tools/call', { resultType: 'complete', content: [] }).ok).toBe(
      true,
    );
    expect(
      parseResult(modern, 'tools/call', { resultType: 'input_required', requestState: 's' }).ok,
    ).toBe(true);
  });
  it('rejects an unknown resultType (clients must treat it as invalid)', () => {
    const parsed = parseResult(modern, 'tools/call', { resultType: 'mystery', content: [] });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe('INVALID_RESULT');
  });
  it('reads legacy results without resultType', () => {
    expect(
      parseResult(getWire('2025-11-25'), 'tools/call', { content: [{ type: 'text', text: 'hi' }] })
        .ok,
    ).toBe(true);
  });
  it('rejects audio content in 2024-11-05, accepts it from 2025-06-18', () => {
    const result = { content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] };
    expect(parseResult(getWire('2024-11-05'), 'tools/call', result).ok).toBe(false);
    expect(parseResult(getWire('2025-06-18'), 'tools/call', result).ok).toBe(true);
  });
});

describe('method types follow the schemas', () => {
  it('a parsed tools/call result fits CallToolResult, and the types reject what the schema rejects', () => {
    const parsed = parseResult(getWire('2026-07-28'), 'tools/call', {
      resultType: 'complete',
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(parsed.ok).toBe(true);
    const result: CallToolResult = { content: [{ type: 'text', text: 'hi' }], isError: false };
    expectTypeOf(result.content[0]).toExtend<ContentBlock | undefined>();
    // @ts-expect-error: content is required by the schema, so by the type too
    const missing: CallToolResult = { isError: true };
    expect(missing).toBeDefined();
    expectTypeOf<ListToolsResult['tools'][number]['name']>().toEqualTypeOf<string>();
    expectTypeOf<ListToolsResult['ttlMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CallToolRequestParams['arguments']>().toEqualTypeOf<
      Record<string, unknown> | undefined
    >();
    expectTypeOf<DiscoverResult['supportedVersions']>().toEqualTypeOf<string[]>();
  });
});
