/**
 * Era detection over HTTP against real servers: a twofold endpoint (modern), the official SDK
 * 1.32.2 Streamable HTTP server (legacy) and its HTTP+SSE server (the 2024-11-05 fallback), and
 * servers that refuse (401, 500) or never answer, which are errors and never fallbacks. Every
 * transport opened is counted, and no socket stays open once the session is closed.
 */
import { LocalError, ProtocolError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { connectSession } from '../../src/era/connect';
import {
  settledSockets,
  startSdkSse,
  startSdkStreamable,
  startSilent,
  startStatus,
  startTwofoldHttp,
} from '../support/era-http';
import {
  connectForTest,
  eraConfig,
  eraHooks,
  httpTarget,
  useEraCleanups,
} from '../support/era-targets';

useEraCleanups();

async function failure(promise: Promise<unknown>): Promise<LocalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalError);
  return error as LocalError;
}

describe('HTTP era detection (auto)', () => {
  it('a twofold endpoint is modern on the first POST', async () => {
    const server = await startTwofoldHttp();
    const { target, opened } = httpTarget(server.url());
    const session = await connectForTest(target, eraConfig());
    expect(session.verdict).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'streamable-http',
      serverKey: target.key,
    });
    expect(session.facts.serverInfo?.name).toBe('twofold-http');
    const listed = await session.request('tools/list', undefined);
    expect(listed.tools).toHaveLength(1);
    expect(opened).toEqual(['modern']);
    await session.close();
    expect(await settledSockets(server)).toBe(0);
  });

  it('the official SDK Streamable HTTP server is legacy, after one refused probe', async () => {
    const server = await startSdkStreamable();
    const { target, opened } = httpTarget(server.url());
    const config = eraConfig({ probeTimeoutMs: 30_000 });
    const session = await connectForTest(target, config);
    expect(session.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'streamable-http',
    });
    // Its 400 answer has `id: null`: it is read as the probe's answer, not a stray message.
    expect((config.hooks as ReturnType<typeof eraHooks>).warnings).toEqual([]);
    expect(session.facts.serverInfo?.name).toBe('sdk-legacy');
    const listed = await session.request('tools/list', undefined);
    expect(listed.tools).toHaveLength(1);
    expect(opened).toEqual(['modern', 'legacy']);
    await session.close();
    expect(await settledSockets(server)).toBe(0);
  });

  it('the official SDK HTTP+SSE server is reached through the 2024-11-05 fallback', async () => {
    const server = await startSdkSse();
    const { target, opened } = httpTarget(server.url());
    const session = await connectForTest(target, eraConfig({ probeTimeoutMs: 30_000 }));
    expect(session.verdict).toMatchObject({ era: 'legacy', transport: 'http+sse' });
    const listed = await session.request('tools/list', undefined);
    expect(listed.tools).toHaveLength(1);
    expect(opened).toEqual(['modern', 'legacy', 'http+sse']);
    expect(server.requests.slice(0, 3)).toEqual(['POST /mcp', 'POST /mcp', 'GET /mcp']);
    await session.close();
    expect(await settledSockets(server)).toBe(0);
  });

  it('401 is UNAUTHORIZED, with no fallback', async () => {
    const server = await startStatus(401, { 'WWW-Authenticate': 'Bearer realm="test"' });
    const { target, opened } = httpTarget(server.url());
    const error = await failure(connectSession(target, eraConfig()));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.details).toMatchObject({ status: 401, wwwAuthenticate: 'Bearer realm="test"' });
    expect(opened).toEqual(['modern']);
    expect(await settledSockets(server)).toBe(0);
  });

  it('403 is UNAUTHORIZED too', async () => {
    const server = await startStatus(403);
    const { target, opened } = httpTarget(server.url());
    expect((await failure(connectSession(target, eraConfig()))).code).toBe('UNAUTHORIZED');
    expect(opened).toEqual(['modern']);
  });

  it('500 is HTTP_ERROR, with no fallback', async () => {
    const server = await startStatus(500);
    const { target, opened } = httpTarget(server.url());
    const error = await failure(connectSession(target, eraConfig()));
    expect(error.code).toBe('HTTP_ERROR');
    expect(error.details).toMatchObject({ status: 500 });
    expect(opened).toEqual(['modern']);
    expect(server.requests).toEqual(['POST /mcp']);
  });

  it('a probe that times out is REQUEST_TIMEOUT, with no fallback, at the connect budget', async () => {
    const server = await startSilent();
    const { target, opened } = httpTarget(server.url());
    // probeTimeoutMs is for streams: over HTTP only the connect budget ends a silent probe.
    const config = eraConfig({ probeTimeoutMs: 50, connectTimeoutMs: 300 });
    const error = await failure(connectSession(target, config));
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.details).toMatchObject({ phase: 'probe', timeoutMs: 300 });
    expect(opened).toEqual(['modern']);
    expect(await settledSockets(server)).toBe(0);
  });

  it('an endpoint refusing both POSTs and the SSE GET fails, everything closed', async () => {
    const server = await startStatus(404);
    const { target, opened } = httpTarget(server.url());
    const error = await failure(connectSession(target, eraConfig()));
    expect(error.code).toBe('HTTP_ERROR');
    expect(opened).toEqual(['modern', 'legacy', 'http+sse']);
    expect(await settledSockets(server)).toBe(0);
  });
});

describe('HTTP: pinned era and prior verdicts', () => {
  it("era 'legacy' goes straight to initialize", async () => {
    const server = await startSdkStreamable();
    const { target, opened } = httpTarget(server.url());
    const session = await connectForTest(target, eraConfig({ era: 'legacy' }));
    expect(session.verdict).toMatchObject({ era: 'legacy', transport: 'streamable-http' });
    expect(opened).toEqual(['legacy']);
  });

  it('a legacy connect does not wait for the GET stream; its failure is a warning', async () => {
    let answerGet: (response: Response) => void = () => undefined;
    const server = await startTwofoldHttp({ get: new Promise((resolve) => (answerGet = resolve)) });
    const hooks = eraHooks();
    const warned = new Promise<void>((resolve) => {
      const record = hooks.onWarning;
      hooks.onWarning = (warning) => {
        record(warning);
        resolve();
      };
    });
    const { target } = httpTarget(server.url());
    const session = await connectForTest(target, eraConfig({ era: 'legacy', hooks }));
    expect((await session.request('tools/list', undefined)).tools).toHaveLength(1);
    expect(hooks.warnings).toEqual([]);
    answerGet(new Response('unavailable', { status: 500 }));
    await warned;
    expect(hooks.warnings.map((warning) => warning.message)).toEqual([
      expect.stringContaining("The server's event stream could not be opened"),
    ]);
    await session.close();
    expect(await settledSockets(server)).toBe(0);
  });

  it("era 'modern' on a legacy server is an error, not a fallback", async () => {
    const server = await startSdkStreamable();
    const { target, opened } = httpTarget(server.url());
    const error = await connectSession(target, eraConfig({ era: 'modern' })).catch(
      (e: unknown) => e,
    );
    // The SDK refuses a request without a session with -32000 (an id-less error in a 400).
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32000);
    expect(opened).toEqual(['modern']);
  });

  it('an HTTP+SSE verdict opens the SSE transport at once', async () => {
    const server = await startSdkSse();
    const { target, opened } = httpTarget(server.url());
    const verdict = {
      era: 'legacy' as const,
      protocolVersion: '2024-11-05',
      transport: 'http+sse' as const,
      serverKey: target.key,
    };
    const session = await connectForTest(target, eraConfig({ verdict }));
    expect(session.verdict).toMatchObject({
      era: 'legacy',
      protocolVersion: '2024-11-05',
      transport: 'http+sse',
    });
    expect(opened).toEqual(['http+sse']);
  });

  it('a legacy verdict on a modern-only endpoint moves to modern', async () => {
    const server = await startTwofoldHttp({ legacy: false });
    const { target, opened } = httpTarget(server.url());
    const verdict = {
      era: 'legacy' as const,
      protocolVersion: '2025-11-25',
      transport: 'streamable-http' as const,
      serverKey: target.key,
    };
    const session = await connectForTest(target, eraConfig({ verdict }));
    expect(session.verdict).toMatchObject({ era: 'modern', transport: 'streamable-http' });
    expect(opened).toEqual(['legacy', 'modern']);
  });
});
