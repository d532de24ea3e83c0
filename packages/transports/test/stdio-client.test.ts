import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '../src/node';
import { buildChildEnv } from '../src/stdio/child-env';
import {
  fixtureServer,
  handleCounts,
  record,
  resultOf,
  SpawnTracker,
} from './fixtures/stdio/harness';

const tracker = new SpawnTracker();
afterEach(async () => {
  expect(await tracker.cleanup(), 'processes left alive').toEqual([]);
});

describe('StdioClientTransport', () => {
  it('exchanges requests and notifications with a spawned server', async () => {
    const transport = tracker.spawn(fixtureServer('echo.mjs'));
    const rec = record(transport);
    await transport.start();
    expect(transport.pid).toBeTypeOf('number');
    const [a, b] = await Promise.all([
      rec.request(1, 'tools/list', { cursor: 'c' }),
      rec.request('two', 'ping'),
    ]);
    expect(a).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { method: 'tools/list', params: { cursor: 'c' } },
    });
    expect(b).toMatchObject({ id: 'two', result: { method: 'ping' } });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await rec.next((m) => 'method' in m && m.method === 'notifications/echo');
    expect(rec.errors).toEqual([]);
  });

  it('closes by ending stdin: the server exits on its own, no error, onclose once', async () => {
    const before = await handleCounts();
    const transport = tracker.spawn(fixtureServer('echo.mjs'));
    const rec = record(transport);
    await transport.start();
    await rec.request(1, 'ping');
    await Promise.all([transport.close(), transport.close()]);
    await transport.close();
    expect(rec.closes).toBe(1);
    expect(rec.errors).toEqual([]);
    expect(transport.exitInfo).toEqual({ exitCode: 0, signal: null, stderrTail: '' });
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({
      code: LocalErrorCode.ConnectionClosed,
    });
    expect(await handleCounts()).toEqual(before);
  });

  it('rejects send before start, and a second start', async () => {
    const transport = tracker.spawn(fixtureServer('echo.mjs'));
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({
      code: LocalErrorCode.NotConnected,
    });
    await transport.start();
    await expect(transport.start()).rejects.toThrow(/only once/);
  });

  it('closing a transport that never started still calls onclose once', async () => {
    const transport = new StdioClientTransport(fixtureServer('echo.mjs'));
    const rec = record(transport);
    await transport.close();
    expect(rec.closes).toBe(1);
    expect(transport.pid).toBeUndefined();
  });

  it('reports a program that cannot be spawned as PROCESS_EXITED, then closes', async () => {
    const transport = tracker.spawn({ command: 'twofold-no-such-program-for-tests' });
    const rec = record(transport);
    const failure = await transport.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LocalError);
    expect(failure).toMatchObject({
      code: LocalErrorCode.ProcessExited,
      details: { exitCode: null, signal: null, stderrTail: '' },
    });
    expect((failure as LocalError).message).toMatch(/could not be started.*ENOENT/);
    expect(rec.errors).toEqual([failure]);
    expect(rec.closes).toBe(1);
  });

  it('reports an unexpected exit with its code and stderr tail', async () => {
    const transport = tracker.spawn(fixtureServer('echo.mjs'));
    const rec = record(transport);
    await transport.start();
    await transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'test/exit',
      params: { code: 3, stderr: 'fatal: out of cheese\n' },
    });
    await rec.closed;
    expect(rec.closes).toBe(1);
    expect(rec.errors).toHaveLength(1);
    const [error] = rec.errors;
    expect(error).toMatchObject({
      code: LocalErrorCode.ProcessExited,
      details: { exitCode: 3, signal: null, stderrTail: 'fatal: out of cheese\n' },
    });
    expect(error?.message).toMatch(/exited with code 3; stderr: fatal: out of cheese/);
    expect(transport.exitInfo?.exitCode).toBe(3);
    expect(transport.stderrTail()).toBe('fatal: out of cheese\n');
  });

  it('finds a bare command name on the allow-listed PATH', async () => {
    const options = fixtureServer('echo.mjs');
    const transport = tracker.spawn({ ...options, command: 'node' });
    const rec = record(transport);
    await transport.start();
    expect(await rec.request(1, 'ping')).toMatchObject({ result: { method: 'ping' } });
  });

  it('passes arguments verbatim, without a shell', async () => {
    const args = ['$(echo pwned)', '`id`', 'a b', '"quoted"', "it's", '; rm -rf /', '*'];
    const transport = tracker.spawn(fixtureServer('echo.mjs', args));
    const rec = record(transport);
    await transport.start();
    const response = await rec.request(1, 'test/env');
    expect(response).toMatchObject({ result: { argv: args } });
  });

  it('gives the server the allow-listed environment plus explicit variables only', async () => {
    process.env.TWOFOLD_TEST_SECRET = 'do-not-leak';
    try {
      const transport = tracker.spawn(
        fixtureServer('echo.mjs', [], {
          env: { MCP_EXTRA: 'yes', HOME: '/srv/home', LANG: undefined },
          cwd: '/',
        }),
      );
      const rec = record(transport);
      await transport.start();
      const response = await rec.request(1, 'test/env');
      const { env, cwd } = resultOf<{ env: Record<string, string>; cwd: string }>(response);
      expect(env.TWOFOLD_TEST_SECRET).toBeUndefined();
      expect(env.MCP_EXTRA).toBe('yes');
      expect(env.HOME).toBe('/srv/home');
      expect(env.LANG).toBeUndefined();
      expect(env.PATH).toBe(process.env.PATH);
      expect(cwd).toBe('/');

      const inheriting = tracker.spawn(fixtureServer('echo.mjs', [], { inheritEnv: true }));
      const rec2 = record(inheriting);
      await inheriting.start();
      const response2 = await rec2.request(1, 'test/env');
      expect(response2).toMatchObject({ result: { env: { TWOFOLD_TEST_SECRET: 'do-not-leak' } } });
    } finally {
      delete process.env.TWOFOLD_TEST_SECRET;
    }
  });
});

describe('buildChildEnv', () => {
  it('keeps allow-listed names (any case), drops the rest and exported shell functions', () => {
    const env = buildChildEnv(
      {
        PATH: '/bin',
        Path: 'C:\\bin',
        SystemRoot: 'C:\\Windows',
        AWS_SECRET_ACCESS_KEY: 'k',
        TERM: '() { :; }; echo pwned',
        HOME: undefined,
      },
      { EXTRA: '1', PATH: '/custom' },
      false,
    );
    expect(env).toEqual({
      PATH: '/custom',
      Path: 'C:\\bin',
      SystemRoot: 'C:\\Windows',
      EXTRA: '1',
    });
    expect(DEFAULT_INHERITED_ENV_VARS).toEqual(
      expect.arrayContaining(['PATH', 'HOME', 'USER', 'LANG', 'SYSTEMROOT', 'PATHEXT', 'COMSPEC']),
    );
  });

  it('passes everything with inheritAll', () => {
    expect(buildChildEnv({ A: '1', B: '2' }, { B: '3' }, true)).toEqual({ A: '1', B: '3' });
  });
});
