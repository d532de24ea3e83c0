import { describe, expect, it } from 'vitest';
import { classifyInbound, type HttpPostFacts, type InboundEra, routeHttpPost } from '../src/era';
import { ErrorCode } from '../src/errors';
import { type DecodedMessage, decodeMessage } from '../src/jsonrpc';

const meta = (version: string) => ({
  _meta: {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
  },
});

function decoded(message: unknown): DecodedMessage {
  const result = decodeMessage(message);
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

const cases: [string, unknown, InboundEra][] = [
  [
    'initialize',
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
    { era: 'legacy', kind: 'initialize', requestedVersion: '2025-06-18' },
  ],
  [
    'initialize without a version',
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
    { era: 'legacy', kind: 'initialize', requestedVersion: undefined },
  ],
  [
    'a modern request',
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: meta('2026-07-28') },
    { era: 'modern', kind: 'request', version: '2026-07-28' },
  ],
  [
    'a modern request naming an unknown version (still modern: answer -32022)',
    { jsonrpc: '2.0', id: 2, method: 'server/discover', params: meta('2031-01-01') },
    { era: 'modern', kind: 'request', version: '2031-01-01' },
  ],
  [
    'a request without _meta',
    { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    { era: 'legacy', kind: 'session' },
  ],
  ['ping', { jsonrpc: '2.0', id: 3, method: 'ping' }, { era: 'legacy', kind: 'session' }],
  [
    'a notification',
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
    { era: 'either', kind: 'notification' },
  ],
  [
    'a response (only legacy clients answer)',
    { jsonrpc: '2.0', id: 'srv-1', result: {} },
    { era: 'legacy', kind: 'session' },
  ],
  [
    'an error response',
    { jsonrpc: '2.0', id: 'srv-1', error: { code: -32601, message: 'no' } },
    { era: 'legacy', kind: 'session' },
  ],
];

describe('classifyInbound', () => {
  it.each(cases)('%s', (_, message, era) => {
    expect(classifyInbound(decoded(message))).toEqual(era);
  });
});

describe('routeHttpPost', () => {
  const table: [string, unknown, HttpPostFacts, ReturnType<typeof routeHttpPost>['route']][] = [
    ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, {}, 'initialize'],
    [
      'initialize with modern _meta and header',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: meta('2026-07-28') },
      { protocolVersionHeader: '2026-07-28' },
      'modern',
    ],
    [
      'initialize with a stale session id',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { sessionId: 'abc' },
      'initialize',
    ],
    [
      'modern body',
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2026-07-28') },
      { protocolVersionHeader: '2026-07-28' },
      'modern',
    ],
    [
      'modern body, legacy session header ignored',
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2026-07-28') },
      { sessionId: 'abc' },
      'modern',
    ],
    [
      'modern header, request missing _meta (modern path answers -32602)',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { protocolVersionHeader: '2026-07-28' },
      'modern',
    ],
    [
      'legacy session',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { sessionId: 'abc' },
      'legacy-session',
    ],
    [
      'stateless legacy (version header only)',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { protocolVersionHeader: '2025-06-18' },
      'legacy-session',
    ],
    [
      'no version at all (2025-03-26)',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {},
      'reject',
    ],
    [
      'unknown version header',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { protocolVersionHeader: '2025-03-26' },
      'reject',
    ],
  ];

  it.each(table)('%s → %s', (_, message, facts, route) => {
    const result = routeHttpPost(decoded(message), facts);
    expect(result.route).toBe(route);
    if (result.route === 'reject') {
      expect(result.status).toBe(400);
      expect(result.error.code).toBe(ErrorCode.HeaderMismatch);
    }
  });
});
