import { describe, expect, it } from 'vitest';
import { LocalErrorCode } from '../src/errors';
import {
  classifyHttpProbe,
  classifyLegacyInitializeStatus,
  classifyStdioProbe,
  type HttpProbeObservation,
  type ProbeObservation,
  type ProbeVerdict,
} from '../src/probe';

const discover = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  ttlMs: 0,
  cacheScope: 'public',
};
const unsupported = (supported: string[]) => ({
  code: -32022,
  message: 'Unsupported protocol version',
  data: { supported, requested: '2026-07-28' },
});
const options = { requested: '2026-07-28' };

describe('classifyStdioProbe', () => {
  const table: [string, ProbeObservation, Partial<ProbeVerdict>][] = [
    [
      'a DiscoverResult',
      { type: 'result', result: discover },
      { verdict: 'modern', version: '2026-07-28' },
    ],
    [
      '-32022 rejecting a version it lists (retried once by the caller)',
      { type: 'error', error: unsupported(['2030-01-01', '2026-07-28']) },
      { verdict: 'retry', version: '2026-07-28' },
    ],
    [
      '-32022 listing only legacy versions we share',
      { type: 'error', error: unsupported(['2025-06-18']) },
      { verdict: 'legacy', fresh: false, version: '2025-06-18' },
    ],
    [
      '-32022 with nothing in common',
      { type: 'error', error: unsupported(['2030-01-01']) },
      { verdict: 'error', code: LocalErrorCode.NoMutualVersion },
    ],
    [
      '-32022 without data',
      { type: 'error', error: { code: -32022, message: 'x' } },
      { verdict: 'error', code: LocalErrorCode.NoMutualVersion },
    ],
    [
      '-32601 from a legacy server',
      { type: 'error', error: { code: -32601, message: 'Method not found' } },
      { verdict: 'legacy', fresh: false },
    ],
    [
      '-32602 from a legacy server',
      { type: 'error', error: { code: -32602, message: 'Invalid params' } },
      { verdict: 'legacy', fresh: false },
    ],
    [
      '-32000 "not initialized"',
      { type: 'error', error: { code: -32000, message: 'Server not initialized' } },
      { verdict: 'legacy', fresh: false },
    ],
    [
      'an odd result (a legacy server answering anything)',
      { type: 'result', result: {} },
      { verdict: 'legacy', fresh: false },
    ],
    ['silence past the timeout', { type: 'timeout' }, { verdict: 'legacy', fresh: true }],
    ['the process exited', { type: 'closed' }, { verdict: 'legacy', fresh: true }],
  ];
  it.each(table)('%s', (_, observation, expected) => {
    expect(classifyStdioProbe(observation, options)).toMatchObject(expected);
  });

  it('retries with the mutual version when the server wants another modern one', () => {
    const verdict = classifyStdioProbe(
      {
        type: 'error',
        error: {
          ...unsupported(['2026-07-28']),
          data: { supported: ['2026-07-28'], requested: '2027-01-01' },
        },
      },
      { requested: '2027-01-01' },
    );
    expect(verdict).toEqual({ verdict: 'retry', version: '2026-07-28' });
  });
});

describe('classifyHttpProbe', () => {
  const response = (status: number, body?: unknown): HttpProbeObservation => ({
    type: 'response',
    status,
    body,
  });
  const rpcError = (code: number, data?: unknown) => ({
    jsonrpc: '2.0',
    id: 1,
    error: { code, message: 'x', data },
  });
  const table: [string, HttpProbeObservation, Partial<ProbeVerdict>][] = [
    [
      '200 with a DiscoverResult',
      response(200, { jsonrpc: '2.0', id: 1, result: discover }),
      { verdict: 'modern' },
    ],
    [
      '400 with -32022 sharing a legacy version',
      response(400, rpcError(-32022, { supported: ['2025-11-25'], requested: '2026-07-28' })),
      { verdict: 'legacy', version: '2025-11-25' },
    ],
    [
      '400 with -32020 (fix headers, still modern)',
      response(400, rpcError(-32020)),
      { verdict: 'modern' },
    ],
    [
      '400 with -32021',
      response(400, rpcError(-32021, { requiredCapabilities: {} })),
      { verdict: 'modern' },
    ],
    ['404 with -32601', response(404, rpcError(-32601)), { verdict: 'modern' }],
    ['400 with -32601 (a legacy server)', response(400, rpcError(-32601)), { verdict: 'legacy' }],
    ['400 with an empty body', response(400), { verdict: 'legacy', fresh: false }],
    [
      '400 "missing session id" text',
      response(400, 'Bad Request: No valid session ID'),
      { verdict: 'legacy' },
    ],
    ['404 with no body', response(404), { verdict: 'legacy' }],
    ['405', response(405), { verdict: 'legacy' }],
    ['406 (a legacy server disliking headers)', response(406), { verdict: 'legacy' }],
    [
      '200 with a JSON-RPC -32601 from a stateless legacy server',
      response(200, rpcError(-32601)),
      { verdict: 'legacy' },
    ],
    [
      '401 is authorization, never era evidence',
      response(401),
      { verdict: 'error', code: LocalErrorCode.Unauthorized },
    ],
    [
      '403 likewise',
      response(403, rpcError(-32022, { supported: ['2026-07-28'] })),
      { verdict: 'error', code: LocalErrorCode.Unauthorized },
    ],
    [
      '500 is an error, not a fallback',
      response(500),
      { verdict: 'error', code: LocalErrorCode.HttpError },
    ],
    [
      '503 likewise',
      response(503, rpcError(-32603)),
      { verdict: 'error', code: LocalErrorCode.HttpError },
    ],
    [
      'a timeout is an error',
      { type: 'timeout' },
      { verdict: 'error', code: LocalErrorCode.RequestTimeout },
    ],
    [
      'a network failure is an error',
      { type: 'network-error', message: 'ECONNREFUSED' },
      { verdict: 'error', code: LocalErrorCode.HttpError },
    ],
    [
      'a redirect left unfollowed is an error',
      response(307),
      { verdict: 'error', code: LocalErrorCode.HttpError },
    ],
  ];
  it.each(table)('%s', (_, observation, expected) => {
    expect(classifyHttpProbe(observation, options)).toMatchObject(expected);
  });
});

describe('classifyLegacyInitializeStatus', () => {
  it.each([
    [400, 'http+sse'],
    [404, 'http+sse'],
    [405, 'http+sse'],
    [401, 'unauthorized'],
    [403, 'unauthorized'],
    [500, 'error'],
    [415, 'error'],
  ] as const)('HTTP %i → %s', (status, outcome) => {
    expect(classifyLegacyInitializeStatus(status)).toBe(outcome);
  });
});
