/**
 * Era detection tests: stdio targets that spawn the fixture servers (counting every start),
 * HTTP targets that count the transports opened per kind, recording hooks, and cleanups.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SseClientTransport, StreamableHttpClientTransport } from '@twofold/transports/http';
import { StdioClientTransport, undiciFetch } from '@twofold/transports/node';
import { afterEach, expect } from 'vitest';
import { type ConnectConfig, connectSession } from '../../src/era/connect';
import type { EraSession, SessionHooks } from '../../src/session/types';
import type { ClientWarning, HttpTransportRequest, ServerTarget } from '../../src/types';

const FIXTURES = fileURLToPath(new URL('../fixtures/era/', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];

/** Registers the after-each hook that runs the cleanups of the file's tests, newest first. */
export function useEraCleanups(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
}

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

/** Hooks for the sessions era detection builds; `warnings` collects what they report. */
export function eraHooks(): SessionHooks & { warnings: ClientWarning[] } {
  const warnings: ClientWarning[] = [];
  return {
    clientInfo: { name: 'era-test-client', version: '1.0.0' },
    capabilities: {},
    requestTimeoutMs: 20_000,
    answerInput: async (method) => {
      throw new Error(`unexpected input request ${method}`);
    },
    onNotification: () => undefined,
    onWarning: (warning) => warnings.push(warning),
    onClose: () => undefined,
    warnings,
  };
}

/** A connect config with test defaults; `overrides` replace single fields. */
export function eraConfig(overrides: Partial<ConnectConfig> = {}): ConnectConfig {
  return {
    era: 'auto',
    // Generous: a cold server under CI load must not be mistaken for a silent one. Tests of
    // the probe timeout set their own.
    probeTimeoutMs: 10_000,
    connectTimeoutMs: 20_000,
    hooks: eraHooks(),
    headerParams: () => undefined,
    ...overrides,
  };
}

/** Connects, and closes the session after the test. */
export async function connectForTest(
  target: ServerTarget,
  config: ConnectConfig,
): Promise<EraSession> {
  const session = await connectSession(target, config);
  onCleanup(() => session.close());
  return session;
}

/** A stdio fixture target that records every process it starts. */
export interface StdioFixture {
  target: Extract<ServerTarget, { kind: 'stream' }>;
  /** Processes started so far (from the fixtures' own spawn log). */
  spawns(): number;
  /** The transports opened so far, in order. */
  readonly opened: StdioClientTransport[];
  /** Stderr of every process, concatenated. */
  stderr(): string;
}

/** A target spawning `node <fixture> ...args`; `key` defaults to the fixture and its args. */
export function stdioFixture(fixture: string, args: string[] = [], key?: string): StdioFixture {
  const dir = mkdtempSync(join(tmpdir(), 'twofold-era-'));
  const log = join(dir, 'spawns');
  onCleanup(async () => rmSync(dir, { recursive: true, force: true }));
  const opened: StdioClientTransport[] = [];
  let stderr = '';
  const target: StdioFixture['target'] = {
    kind: 'stream',
    key: key ?? `stdio:${fixture} ${args.join(' ')}`,
    open: () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(FIXTURES, fixture), ...args],
        cwd: PACKAGE_DIR,
        env: { ERA_SPAWN_LOG: log },
        stderr: (chunk) => {
          stderr += chunk;
        },
      });
      opened.push(transport);
      onCleanup(() => transport.close());
      return transport;
    },
  };
  return {
    target,
    opened,
    stderr: () => stderr,
    spawns: () => {
      try {
        return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
      } catch {
        return 0;
      }
    },
  };
}

/** Whether a process is still running. */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Asserts that none of the fixture's processes is still running. */
export function expectNoLiveChild(fixture: StdioFixture): void {
  for (const transport of fixture.opened) {
    expect(transport.pid, 'a process was started').toBeDefined();
    expect(isAlive(transport.pid), `process ${transport.pid} still runs`).toBe(false);
  }
}

/** An HTTP target counting the transports opened per kind. */
export interface HttpFixtureTarget {
  target: Extract<ServerTarget, { kind: 'http' }>;
  readonly opened: HttpTransportRequest['kind'][];
}

/** A target for `url`; the HTTP+SSE fallback GETs `sseUrl` (default `url`). */
export function httpTarget(
  url: URL,
  sseUrl: URL = url,
  key = `http:${url.href}`,
): HttpFixtureTarget {
  const opened: HttpTransportRequest['kind'][] = [];
  const target: HttpFixtureTarget['target'] = {
    kind: 'http',
    key,
    open: (request) => {
      opened.push(request.kind);
      const transport =
        request.kind === 'http+sse'
          ? new SseClientTransport({ url: sseUrl, endpointTimeoutMs: 10_000, ...undiciFetch() })
          : new StreamableHttpClientTransport({
              url,
              ...undiciFetch(),
              era: request.kind,
              headerParams: request.headerParams,
              ...(request.protocolVersion ? { protocolVersion: request.protocolVersion } : {}),
            });
      onCleanup(() => transport.close());
      return transport;
    },
  };
  return { target, opened };
}
