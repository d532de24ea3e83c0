import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  HeaderMismatchError,
  LocalError,
  LocalErrorCode,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  UnsupportedProtocolVersionError,
} from '../src/errors';
import {
  buildRequestMeta,
  META_KEYS,
  protocolVersionOf,
  readRequestEnvelope,
  readTraceContext,
  subscriptionIdOf,
  withServerInfo,
} from '../src/meta';

const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('error codes', () => {
  it('pins the wire error table', () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
      LegacyResourceNotFound: -32002,
      LegacyUrlElicitationRequired: -32042,
    });
  });

  it('rebuilds the most specific class from a received error', () => {
    const unsupported = ProtocolError.fromErrorObject({
      code: -32022,
      message: 'Unsupported',
      data: { supported: ['2026-07-28'], requested: '1999-01-01' },
    });
    expect(unsupported).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((unsupported as UnsupportedProtocolVersionError).supported).toEqual(['2026-07-28']);
    expect((unsupported as UnsupportedProtocolVersionError).requested).toBe('1999-01-01');
    const missing = ProtocolError.fromErrorObject({
      code: -32021,
      message: 'x',
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(missing).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect((missing as MissingRequiredClientCapabilityError).requiredCapabilities).toEqual({
      elicitation: {},
    });
    expect(ProtocolError.fromErrorObject({ code: -32020, message: 'x' })).toBeInstanceOf(
      HeaderMismatchError,
    );
    const plain = ProtocolError.fromErrorObject({ code: 12, message: 'app', data: [1] });
    expect(plain.constructor).toBe(ProtocolError);
    expect(plain.toErrorObject()).toEqual({ code: 12, message: 'app', data: [1] });
  });

  it('serialises -32022 with both data fields', () => {
    expect(new UnsupportedProtocolVersionError(['2026-07-28'], 'x').toErrorObject()).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: 'x' },
    });
  });

  it('keeps local errors apart from wire errors', () => {
    const error = new LocalError(LocalErrorCode.RequestTimeout, 'timed out', {
      details: { ms: 5 },
    });
    expect(error).not.toBeInstanceOf(ProtocolError);
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.details).toEqual({ ms: 5 });
  });
});

describe('_meta envelope', () => {
  it('builds and reads back a full envelope', () => {
    const meta = buildRequestMeta({
      protocolVersion: '2026-07-28',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'c', version: '1' },
      logLevel: 'info',
      progressToken: 7,
      trace: { traceparent, tracestate: 'a=b', baggage: 'k=v' },
    });
    expect(meta).toEqual({
      [META_KEYS.protocolVersion]: '2026-07-28',
      [META_KEYS.clientCapabilities]: { elicitation: {} },
      [META_KEYS.clientInfo]: { name: 'c', version: '1' },
      [META_KEYS.logLevel]: 'info',
      progressToken: 7,
      traceparent,
      tracestate: 'a=b',
      baggage: 'k=v',
    });
    const read = readRequestEnvelope({ _meta: meta });
    expect(read).toEqual({
      ok: true,
      envelope: {
        protocolVersion: '2026-07-28',
        clientCapabilities: { elicitation: {} },
        clientInfo: { name: 'c', version: '1' },
        logLevel: 'info',
        progressToken: 7,
        trace: { traceparent, tracestate: 'a=b', baggage: 'k=v' },
      },
    });
    expect(protocolVersionOf({ _meta: meta })).toBe('2026-07-28');
  });

  it('names the missing required keys', () => {
    expect(readRequestEnvelope({})).toEqual({
      ok: false,
      missing: [META_KEYS.protocolVersion, META_KEYS.clientCapabilities],
    });
    expect(readRequestEnvelope({ _meta: { [META_KEYS.protocolVersion]: '2026-07-28' } })).toEqual({
      ok: false,
      missing: [META_KEYS.clientCapabilities],
    });
    expect(readRequestEnvelope(undefined)).toMatchObject({ ok: false });
  });

  it('drops malformed trace context', () => {
    expect(readTraceContext({ traceparent: 'nope', tracestate: 'a=b' })).toBeUndefined();
    expect(
      readTraceContext({ traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }),
    ).toBeUndefined();
    expect(
      buildRequestMeta({
        protocolVersion: 'v',
        clientCapabilities: {},
        trace: { traceparent: 'bad' },
      }),
    ).not.toHaveProperty('traceparent');
  });

  it('adds serverInfo without losing existing _meta, and reads subscription ids', () => {
    const result = withServerInfo(
      { tools: [], _meta: { 'com.example/x': 1 } },
      { name: 's', version: '2' },
    );
    expect(result._meta).toEqual({
      'com.example/x': 1,
      [META_KEYS.serverInfo]: { name: 's', version: '2' },
    });
    expect(subscriptionIdOf({ _meta: { [META_KEYS.subscriptionId]: 'L1' } })).toBe('L1');
    expect(subscriptionIdOf({})).toBeUndefined();
  });
});
