import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/errors';
import {
  createErrorResponse,
  createNotification,
  createRequest,
  createResultResponse,
  decodeMessage,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  parseMessage,
} from '../src/jsonrpc';

describe('decodeMessage', () => {
  it.each([
    ['request', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['request with a string id', { jsonrpc: '2.0', id: 'a', method: 'x', params: {} }],
    ['notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['result', { jsonrpc: '2.0', id: 1, result: {} }],
    ['error', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } }],
    ['error without id', { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }],
    [
      'error with a null id (plain JSON-RPC peers)',
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } },
    ],
  ])('accepts a %s', (kind, message) => {
    const decoded = decodeMessage(message);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(kind.startsWith(decoded.kind)).toBe(true);
  });

  it.each([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], undefined],
    ['a string', 'hello', undefined],
    ['null', null, undefined],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 7, method: 'x' }, 7],
    ['a null request id', { jsonrpc: '2.0', id: null, method: 'x' }, undefined],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'x' }, undefined],
    ['an object id', { jsonrpc: '2.0', id: {}, method: 'x' }, undefined],
    ['array params', { jsonrpc: '2.0', id: 3, method: 'x', params: [1] }, 3],
    ['a numeric method', { jsonrpc: '2.0', id: 4, method: 5 }, 4],
    ['nothing recognisable', { jsonrpc: '2.0', id: 9 }, 9],
  ])('rejects %s with -32600, naming the id when readable', (_, message, id) => {
    const decoded = decodeMessage(message);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.error.code).toBe(ErrorCode.InvalidRequest);
      expect(decoded.id).toBe(id);
      expect(decoded.responseId).toBeUndefined();
    }
  });

  // A response is never answered: its id goes to `responseId`, for the requester to fail.
  it.each([
    ['a result that is not an object', { jsonrpc: '2.0', id: 1, result: 5 }, 1],
    ['an error without a code', { jsonrpc: '2.0', id: 2, error: { message: 'x' } }, 2],
    ['a result with a wrong jsonrpc', { jsonrpc: '1.0', id: 'r', result: {} }, 'r'],
    ['an error with an object id', { jsonrpc: '2.0', id: {}, error: 'x' }, undefined],
  ])('rejects %s as an invalid response, keeping its id apart', (_, message, responseId) => {
    const decoded = decodeMessage(message);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.error.message).toMatch(/^Invalid response: /);
      expect(decoded.id).toBeUndefined();
      expect(decoded.responseId).toBe(responseId);
    }
  });
});

describe('parseMessage', () => {
  it('answers unparsable text with -32700', () => {
    const decoded = parseMessage('{"jsonrpc": "2.0", "id": 1');
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.code).toBe(ErrorCode.ParseError);
  });
  it('parses and decodes', () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"result":{}}')).toMatchObject({
      ok: true,
      kind: 'result',
    });
  });
});

describe('builders', () => {
  it('build the four message kinds', () => {
    expect(createRequest(1, 'ping')).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(createRequest('a', 'tools/list', { cursor: 'c' })).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      method: 'tools/list',
      params: { cursor: 'c' },
    });
    expect(createNotification('notifications/initialized')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(createResultResponse(2, {})).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(createErrorResponse(undefined, { code: -32700, message: 'Parse error' })).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error' },
    });
  });
});

describe('message-kind guards', () => {
  it.each<[string, JsonRpcMessage]>([
    ['request', createRequest(1, 'ping')],
    ['request', createRequest('a', 'tools/list', {})],
    ['notification', createNotification('notifications/initialized')],
    ['response', createResultResponse(2, {})],
    ['response', createErrorResponse(undefined, { code: -32700, message: 'Parse error' })],
  ])('tell a %s apart', (kind, message) => {
    expect([
      isJsonRpcRequest(message) ? 'request' : undefined,
      isJsonRpcNotification(message) ? 'notification' : undefined,
      isJsonRpcResponse(message) ? 'response' : undefined,
    ]).toEqual(['request', 'notification', 'response'].map((k) => (k === kind ? k : undefined)));
  });
});
