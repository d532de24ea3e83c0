/**
 * Test helpers for the modern session: recording hooks, a session built the way era detection
 * builds one (a connection, a `server/discover` sent in setup), and a real `McpServer` served
 * on an in-memory pair behind a recorder of what the client sent.
 */
import {
  buildRequestMeta,
  type DiscoverResult,
  type JsonRpcMessage,
  LATEST_VERSION,
  type MessageContext,
  type Transport,
} from '@twofold/protocol/experimental';
import type { McpServer } from '@twofold/server/experimental';
import { type ServedConnection, serveTransport } from '@twofold/server/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { afterEach } from 'vitest';
import { createModernSession } from '../../src/modern/session';
import { RpcConnection } from '../../src/rpc/connection';
import type { EraSession, SessionHooks } from '../../src/session/types';
import type { ClientWarning } from '../../src/types';

/** Cleanups registered by a test; `useModernCleanups` runs them after it, newest first. */
export const cleanups: (() => Promise<void>)[] = [];

/** Registers the after-each hook that runs `cleanups` in the calling test file. */
export function useModernCleanups(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
}

/** Session hooks that record what they are told. */
export interface RecordingHooks extends SessionHooks {
  readonly notifications: { method: string; params: Record<string, unknown> | undefined }[];
  readonly warnings: ClientWarning[];
  readonly closes: (Error | undefined)[];
}

/** Hooks for a test client (`overrides` replace single fields). */
export function recordingHooks(overrides: Partial<SessionHooks> = {}): RecordingHooks {
  const notifications: RecordingHooks['notifications'] = [];
  const warnings: ClientWarning[] = [];
  const closes: (Error | undefined)[] = [];
  return {
    clientInfo: { name: 'modern-test', version: '1.0.0' },
    capabilities: {},
    requestTimeoutMs: 10_000,
    answerInput: async (method) => {
      throw new Error(`unexpected input request ${method}`);
    },
    onNotification: (method, params) => notifications.push({ method, params }),
    onWarning: (warning) => warnings.push(warning),
    onClose: (error) => closes.push(error),
    ...overrides,
    notifications,
    warnings,
    closes,
  };
}

/** A modern session and what it was built from. */
export interface ModernHarness {
  session: EraSession;
  connection: RpcConnection;
  hooks: RecordingHooks;
  discover: DiscoverResult;
}

/** Options of {@link startModernSession}. */
export interface StartOptions {
  hooks?: Partial<SessionHooks>;
  /** The version the stored verdict names (default: the latest). */
  verdictVersion?: string;
}

/**
 * Connects on `transport` the way era detection does (CancelPolicy notify, no exchange abort),
 * sends `server/discover` and builds the session from its result.
 */
export async function startModernSession(
  transport: Transport,
  options: StartOptions = {},
): Promise<ModernHarness> {
  const hooks = recordingHooks(options.hooks);
  const connection = new RpcConnection(transport, {
    requestTimeoutMs: hooks.requestTimeoutMs,
    cancel: { notify: true, abortExchange: false },
  });
  await connection.start();
  cleanups.push(() => connection.close());
  const discover = (await connection.request('server/discover', {
    _meta: buildRequestMeta({
      protocolVersion: LATEST_VERSION,
      clientCapabilities: hooks.capabilities,
      clientInfo: hooks.clientInfo,
    }),
  })) as unknown as DiscoverResult;
  const session = createModernSession({
    connection,
    hooks,
    discover,
    verdict: {
      era: 'modern',
      protocolVersion: options.verdictVersion ?? LATEST_VERSION,
      transport: 'stream',
      serverKey: 'test-server',
    },
  });
  return { session, connection, hooks, discover };
}

/** A transport that records every message it delivers to its owner. */
export function recordInbound(transport: Transport, seen: JsonRpcMessage[]): Transport {
  return {
    start: () => transport.start(),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
    get sessionId() {
      return transport.sessionId;
    },
    get onmessage() {
      return transport.onmessage;
    },
    set onmessage(handler:
      | ((message: JsonRpcMessage, context?: MessageContext) => void)
      | undefined) {
      transport.onmessage = handler
        ? (message, context) => {
            seen.push(message);
            handler(message, context);
          }
        : undefined;
    },
    get onerror() {
      return transport.onerror;
    },
    set onerror(handler: ((error: Error) => void) | undefined) {
      transport.onerror = handler;
    },
    get onclose() {
      return transport.onclose;
    },
    set onclose(handler: (() => void) | undefined) {
      transport.onclose = handler;
    },
  };
}

/** A real server served on an in-memory pair, with a modern session on the other end. */
export interface ServedHarness extends ModernHarness {
  served: ServedConnection;
  /** Every message the server received from the client, in order. */
  received: JsonRpcMessage[];
}

/** Serves `server` and connects a modern session to it. */
export async function serveModern(
  server: McpServer,
  options: StartOptions = {},
): Promise<ServedHarness> {
  const [clientEnd, serverEnd] = createInMemoryPair();
  const received: JsonRpcMessage[] = [];
  const served = await serveTransport(server, recordInbound(serverEnd, received));
  cleanups.push(() => served.close());
  const harness = await startModernSession(clientEnd, options);
  return { ...harness, served, received };
}

/** Waits (a bounded number of event-loop turns, no timers) until `condition` holds. */
export async function eventually(condition: () => boolean, turns = 2000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}
