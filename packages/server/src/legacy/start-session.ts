/** Connects a legacy session engine to a transport of its own (an HTTP session, a stdio pipe). */
import type { JsonRpcMessage, Transport } from '@twofold/protocol/experimental';
import type { ServedServer } from '../core/served-server';
import { LegacyEngine, type LegacyEngineOptions } from './engine';
import type { OutboundRequestOptions } from './outbound-requests';

/**
 * Options of {@link startLegacySession}.
 *
 * @experimental
 */
export type LegacySessionOptions = LegacyEngineOptions;

/**
 * A running legacy session.
 *
 * @experimental
 */
export interface LegacySessionHandle {
  /** The version `initialize` settled on, once it has been answered. */
  readonly protocolVersion: string | undefined;
  /** Sends a request to the client (sampling, elicitation, roots, ping) and awaits its result. */
  request(
    method: string,
    params?: Record<string, unknown>,
    options?: OutboundRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** Closes the transport, ending the session. */
  close(): Promise<void>;
}

/**
 * Serves a legacy (`initialize`-based) session of `server` on `transport` and starts the
 * transport. The session ends when the transport closes.
 *
 * @experimental
 */
export async function startLegacySession(
  server: ServedServer,
  transport: Transport,
  options: LegacySessionOptions = {},
): Promise<LegacySessionHandle> {
  const engine = new LegacyEngine(server, transport, options);
  transport.onmessage = (message: JsonRpcMessage, context) => engine.receive(message, context);
  transport.onclose = () => engine.dispose();
  transport.onerror = (error) => options.onerror?.(error);
  await transport.start();
  return {
    get protocolVersion() {
      return engine.protocolVersion;
    },
    request: (method, params, requestOptions) => engine.request(method, params, requestOptions),
    close: () => transport.close(),
  };
}
