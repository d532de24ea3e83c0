/**
 * Negative vectors and cross-revision messages against twofold's wire schemas and the official
 * `schema.json` of each revision (`../shared/spec/README.md`, "How tests can use them", items 4
 * and 5). The positive cases are in `schema-crosscheck.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { createRequest } from '../src/jsonrpc';
import { protocolVersionOf } from '../src/meta';
import { getWire, parseParams } from '../src/registry';
import { methodSamples } from './fixtures/method-samples';
import {
  clientCapabilities,
  elicitAccept,
  implementation,
  type Json,
  LISTEN_ID,
} from './fixtures/sample-parts';
import { specAvailable } from './spec-files';
import {
  MODERN,
  methodOf,
  modernMeta,
  REQUEST_STATE,
  spec,
  wireIssues,
} from './support/spec-validator';

// ---------------------------------------------------------------------------------------------
// Negative vectors (README item 4): each must fail BOTH twofold's schema and schema.json.

describe.skipIf(!specAvailable)('2026-07-28 negative vectors fail both', () => {
  const wire = getWire(MODERN);
  const tools = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
  const hints = { ttlMs: 60_000, cacheScope: 'private' };
  const read = {
    resultType: 'complete',
    contents: [{ uri: 'file:///a.txt', text: 'a' }],
    ...hints,
  };
  const meta = { 'io.modelcontextprotocol/clientCapabilities': {}, progressToken: 'p' };
  const vectors: [string, { method: string; params?: Json; result?: Json }][] = [
    [
      'tools/list result without resultType',
      { method: 'tools/list', result: { ...tools, ...hints } },
    ],
    [
      'tools/list request without _meta protocolVersion',
      { method: 'tools/list', params: { _meta: meta } },
    ],
    ['tools/call request without _meta', { method: 'tools/call', params: { name: 'get_weather' } }],
    [
      'resources/read result with ttlMs: -1',
      { method: 'resources/read', result: { ...read, ttlMs: -1 } },
    ],
    [
      'resources/read result with cacheScope "shared"',
      { method: 'resources/read', result: { ...read, cacheScope: 'shared' } },
    ],
    [
      'tools/list result with input_required',
      { method: 'tools/list', result: { resultType: 'input_required', requestState: 's' } },
    ],
  ];

  it.each(vectors)('%s', (_, vector) => {
    const m = methodOf(wire, vector.method);
    if (vector.params) {
      expect(m.params.safeParse(vector.params).success, 'twofold').toBe(false);
      const request = createRequest(9, vector.method, vector.params);
      expect(spec(MODERN).errors(m.definition, request), 'schema.json').not.toEqual([]);
    }
    if (vector.result) {
      expect(m.result?.safeParse(vector.result).success, 'twofold').toBe(false);
      // Checked against the bare result: `<X>ResultResponse` of an MRTR method also lets
      // through anything with a string resultType (its InputRequiredResult branch is open).
      const def = m.resultDefinition ?? '?';
      expect(spec(MODERN).errors(def, vector.result), 'schema.json').not.toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Cross-revision checks (README item 5).

describe.skipIf(!specAvailable)('cross-revision messages', () => {
  it('a 2026 tools/call retry is also a well-formed 2025-11-25 tools/call', () => {
    const params = {
      name: 'get_weather',
      arguments: { city: 'Paris' },
      inputResponses: { profile: elicitAccept(MODERN) },
      requestState: REQUEST_STATE,
      _meta: modernMeta(),
    };
    const request = createRequest(11, 'tools/call', params);
    // Both twofold's 2025-11-25 schema and schema.json keep objects open: the modern fields
    // (`inputResponses`, `requestState`, the reserved `_meta` keys) are unknown there but
    // allowed. A schema therefore cannot tell the eras apart; routing must read `_meta`.
    expect(wireIssues(getWire('2025-11-25').methods.get('tools/call')?.params, params)).toEqual([]);
    expect(spec('2025-11-25').errors('CallToolRequest', request)).toEqual([]);
    expect(protocolVersionOf(params)).toBe(MODERN);
  });

  it('a 2025-11-25 tools/call (no _meta envelope) is rejected by 2026-07-28', () => {
    const params = {
      name: 'get_weather',
      arguments: { city: 'Paris' },
      _meta: { progressToken: 1 },
    };
    const request = createRequest(12, 'tools/call', params);
    expect(getWire(MODERN).methods.get('tools/call')?.params.safeParse(params).success).toBe(false);
    expect(spec(MODERN).errors('CallToolRequest', request)).not.toEqual([]);
    expect(protocolVersionOf(params)).toBeUndefined();
  });

  it('a legacy initialize has no place in 2026-07-28', () => {
    const params = {
      protocolVersion: '2025-11-25',
      capabilities: clientCapabilities('2025-11-25'),
      clientInfo: implementation('2025-11-25', 'client'),
    };
    const request = createRequest(0, 'initialize', params);
    const wire = getWire(MODERN);
    expect(wire.methods.has('initialize')).toBe(false);
    expect(spec(MODERN).defs).not.toHaveProperty('InitializeRequest');
    const parsed = parseParams(wire, 'initialize', params);
    expect(parsed.ok ? 'accepted' : parsed.error.code).toBe(-32601);
    // Still a well-formed JSON-RPC request, but no 2026 client request.
    expect(spec(MODERN).errors('JSONRPCRequest', request)).toEqual([]);
    expect(spec(MODERN).errors('ClientRequest', request)).not.toEqual([]);
    expect(wire.definitions.ClientRequest?.safeParse(request).success).toBe(false);
    // And the legacy InitializeResult (no resultType) is no 2026 result.
    const result = {
      protocolVersion: '2025-11-25',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    };
    expect(spec(MODERN).errors('Result', result)).not.toEqual([]);
    expect(wire.definitions.Result?.safeParse(result).success).toBe(false);
  });

  it('the end of a listen stream names the listen request id', () => {
    const listen = methodSamples(MODERN)['subscriptions/listen']?.results?.['graceful end'];
    expect(listen?.result._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': LISTEN_ID });
  });
});
