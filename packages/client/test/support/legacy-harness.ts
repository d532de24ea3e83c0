/**
 * Legacy session tests: recording hooks, an `RpcConnection` over an in-memory pair, and a real
 * twofold `McpServer` served on the other end (dual-era `serveTransport`, or the server's own
 * legacy session when a test needs the server's requests to the client).
 */
import type { JsonRpcMessage, Transport } from '@twofold/protocol/experimental';
import {
  McpServer,
  type McpServerOptions,
  startLegacySession as serveLegacySession,
  serveTransport,
} from '@twofold/server/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { afterEach } from 'vitest';
import { type LegacySessionInit, startLegacySession } from '../../src/legacy/session';
import { RpcConnection } from '../../src/rpc/connection';
import type { EraSession, SessionHooks } from '../../src/session/types';
import type { ClientWarning } from '../../src/types';

const cleanups: (() => Promise<unknown>)[] = [];

/** Registers the cleanups of every test of the file. */
export function useLegacyCleanups(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
}

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

/** Hooks that record what the session reports. */
export interface RecordedHooks {
  hooks: SessionHooks;
  notifications: { method: string; params: Record<string, unknown> | undefined }[];
  warnings: ClientWarning[];
  closes: (Error | undefined)[];
  inputs: { method: string; params: Record<string, unknown> | undefined; era: string }[];
}

/** Hooks recording everything; `answerInput` answers with `answer` (default: rejects). */
export function recordingHooks(
  overrides: Partial<SessionHooks> = {},
  answer?: (method: string, params: Record<string, unknown> | undefined) => Record<string, unknown>,
): RecordedHooks {
  const recorded: Omit<RecordedHooks, 'hooks'> = {
    notifications: [],
    warnings: [],
    closes: [],
    inputs: [],
  };
  const hooks: SessionHooks = {
    clientInfo: { name: 'legacy-test-client', version: '1.0.0' },
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    requestTimeoutMs: 5_000,
    answerInput: async (method, params, context) => {
      recorded.inputs.push({ method, params, era: context.era });
      if (answer === undefined) throw new Error(`no answer for ${method}`);
      return answer(method, params);
    },
    onNotification: (method, params) => recorded.notifications.push({ method, params }),
    onWarning: (warning) => recorded.warnings.push(warning),
    onClose: (error) => recorded.closes.push(error),
    ...overrides,
  };
  return { ...recorded, hooks };
}

/** Wraps a transport so every message it sends is recorded. */
export function tapSent(transport: Transport): JsonRpcMessage[] {
  const sent: JsonRpcMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  return sent;
}

/** A started connection the way era detection builds it for stdio and legacy HTTP. */
export async function openConnection(transport: Transport): Promise<RpcConnection> {
  const connection = new RpcConnection(transport, {
    requestTimeoutMs: 5_000,
    cancel: { notify: true, abortExchange: false },
  });
  onCleanup(() => connection.close());
  await connection.start();
  return connection;
}

/** Options of {@link connectLegacy}. */
export interface ConnectOptions extends Partial<Omit<LegacySessionInit, 'connection' | 'hooks'>> {
  recorded?: RecordedHooks;
  /** Serve with the server's own legacy session (exposes `serverSession.request`). */
  serverRequests?: boolean;
}

/** A legacy client session against `server` over an in-memory pair. */
export async function connectLegacy(server: McpServer, options: ConnectOptions = {}) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const sent = tapSent(clientEnd);
  const serverErrors: Error[] = [];
  let serverSession: Awaited<ReturnType<typeof serveLegacySession>> | undefined;
  if (options.serverRequests === true) {
    serverSession = await serveLegacySession(server, serverEnd, {
      requestTimeoutMs: 5_000,
      onerror: (error) => serverErrors.push(error),
    });
    onCleanup(() => serverEnd.close());
  } else {
    const served = await serveTransport(server, serverEnd, {
      onerror: (error) => serverErrors.push(error),
    });
    onCleanup(() => served.close());
  }
  const recorded = options.recorded ?? recordingHooks();
  const connection = await openConnection(clientEnd);
  const { recorded: _r, serverRequests: _s, ...init } = options;
  const session: EraSession = await startLegacySession({
    connection,
    hooks: recorded.hooks,
    serverKey: 'test-server',
    transport: 'stream',
    ...init,
  });
  onCleanup(() => session.close());
  return { session, connection, recorded, sent, serverEnd, serverSession, serverErrors };
}

/** A server with a little of everything: tools, resources, a prompt. */
export function createTestServer(options: Partial<McpServerOptions> = {}): McpServer {
  const server = new McpServer({
    name: 'legacy-test-server',
    version: '2.0.0',
    instructions: 'Call echo.',
    ...options,
  });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: async (args: { text?: string }, context) => {
      await context.log('debug', `echoing ${args.text}`);
      return args.text ?? '';
    },
  });
  for (const uri of ['test://a', 'test://b']) {
    server.registerResource({
      uri,
      name: uri,
      read: (url) => ({ contents: [{ uri: url.href, text: `text of ${url.href}` }] }),
    });
  }
  server.registerPrompt({
    name: 'greet',
    get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }),
  });
  return server;
}

/** Methods of the requests and notifications in `messages`. */
export function methodsOf(messages: readonly JsonRpcMessage[]): string[] {
  return messages.flatMap((m) => ('method' in m ? [m.method] : []));
}

/** Waits (a bounded number of turns) until `check` holds. */
export async function eventually(check: () => boolean, turns = 200): Promise<void> {
  for (let i = 0; i < turns; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error('condition not reached');
}
