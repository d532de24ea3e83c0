import { describe, expect, it } from 'vitest';
import { ErrorCode, LocalError, LocalErrorCode, ProtocolError } from '../src/errors';
import { formatTraceparent, parseTraceparent } from '../src/meta';
import { describeMcpFailure, describeMcpSpan, resultErrorType } from '../src/telemetry';

describe('describeMcpSpan', () => {
  it('names a tool call after its tool and marks it execute_tool', () => {
    const call = { id: 7, method: 'tools/call', params: { name: 'get-weather', arguments: {} } };
    expect(describeMcpSpan(call, { protocolVersion: '2026-07-28', sessionId: 's1' })).toEqual({
      name: 'tools/call get-weather',
      attributes: {
        'mcp.method.name': 'tools/call',
        'jsonrpc.request.id': '7',
        'gen_ai.tool.name': 'get-weather',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': '2026-07-28',
        'mcp.session.id': 's1',
      },
    });
  });

  it('names a prompt, keeps resource URIs out of the name, and lists by method', () => {
    const prompt = describeMcpSpan({ method: 'prompts/get', params: { name: 'review' } });
    expect(prompt.name).toBe('prompts/get review');
    expect(prompt.attributes['gen_ai.prompt.name']).toBe('review');
    const read = describeMcpSpan({
      id: 'r',
      method: 'resources/read',
      params: { uri: 'file:///a' },
    });
    expect(read).toEqual({
      name: 'resources/read',
      attributes: {
        'mcp.method.name': 'resources/read',
        'jsonrpc.request.id': 'r',
        'mcp.resource.uri': 'file:///a',
      },
    });
    expect(describeMcpSpan({ method: 'tools/list' }).name).toBe('tools/list');
  });
});

describe('resultErrorType', () => {
  it('is tool_error for a failed tool result only', () => {
    expect(resultErrorType('tools/call', { content: [], isError: true })).toBe('tool_error');
    expect(resultErrorType('tools/call', { content: [] })).toBeUndefined();
    expect(resultErrorType('prompts/get', { isError: true })).toBeUndefined();
  });
});

describe('traceparent', () => {
  it('round-trips and refuses malformed values', () => {
    const value = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const parsed = parseTraceparent(value);
    expect(parsed).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
    });
    expect(parsed && formatTraceparent(parsed)).toBe(value);
    expect(parseTraceparent(`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect(
      parseTraceparent('00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01'),
    ).toBeUndefined();
  });
});

describe('describeMcpFailure', () => {
  it('is undefined for a successful result, tool_error for a failed tool call', () => {
    expect(describeMcpFailure('tools/list', { result: { tools: [] } })).toBeUndefined();
    expect(describeMcpFailure('tools/call', { result: { content: [], isError: true } })).toEqual({
      errorType: 'tool_error',
    });
  });

  it('records a JSON-RPC error code as error.type and status code, with its message', () => {
    const error = new ProtocolError(ErrorCode.MethodNotFound, 'Method not found: nope');
    expect(describeMcpFailure('nope', { error })).toEqual({
      errorType: '-32601',
      statusCode: '-32601',
      message: 'Method not found: nope',
    });
    expect(describeMcpFailure('x', { error: { code: -32602, message: '' } })).toEqual({
      errorType: '-32602',
      statusCode: '-32602',
    });
  });

  it('records a local error by its code and anything else as _OTHER', () => {
    const timeout = new LocalError(LocalErrorCode.RequestTimeout, 'timed out');
    expect(describeMcpFailure('tools/call', { error: timeout })).toEqual({
      errorType: 'REQUEST_TIMEOUT',
      message: 'timed out',
    });
    expect(describeMcpFailure('ping', { error: 'boom' })).toEqual({ errorType: '_OTHER' });
  });
});
