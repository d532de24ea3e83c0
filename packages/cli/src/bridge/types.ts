/** The public options and handles of `twofold bridge`'s engine. */

import type { Readable, Writable } from 'node:stream';
import type {
  ClientInstrumentation,
  EraChoice,
  EraVerdict,
  ServerTarget,
} from '@twofold/client/experimental';
import type { Implementation, LoggingLevel } from '@twofold/protocol/experimental';
import type { HttpAuthOptions, ServerInstrumentation } from '@twofold/server/experimental';

/**
 * Something the bridge reports: its own trouble (`bridge`) or a log message of the upstream
 * server (`upstream`, every one, also those forwarded to a downstream request).
 *
 * @experimental
 */
export interface BridgeLogEntry {
  source: 'bridge' | 'upstream';
  level: LoggingLevel;
  message: string;
  /** The upstream's log `data`, or details of a bridge warning. */
  data?: unknown;
}

/**
 * How the bridge reaches its upstream server, shared by both directions.
 *
 * @experimental
 */
export interface BridgeUpstreamOptions {
  /** The server to publish: `stdioServer(...)` or `httpServer(...)` from `@twofold/client/node`. */
  upstream: ServerTarget;
  /** The upstream's era: detected by default (`auto`), or pinned. */
  era?: EraChoice;
  /** Pins the upstream protocol version (its era wins over `era`). */
  protocolVersion?: string;
  /** An earlier verdict for the same upstream: skips the era probe. */
  verdict?: EraVerdict;
  /** How the bridge introduces itself upstream. Default `twofold-bridge`. */
  clientInfo?: Implementation;
  /**
   * The log level asked of the upstream (per request on modern, `logging/setLevel` on legacy).
   * Each downstream request still gets only the levels it asked for. Default `debug`.
   */
  logLevel?: LoggingLevel;
  /**
   * How long a call stays pending upstream after the bridge asked a downstream client for input
   * (legacy upstream) without getting the retry that answers it. Default 10 minutes, the
   * lifetime of a modern `requestState`.
   */
  inputTimeoutMs?: number;
  /** How long connecting to the upstream may take. Default 30 s. */
  connectTimeoutMs?: number;
  /** How long the upstream's era probe waits before `initialize` (stdio). Default the client's. */
  probeTimeoutMs?: number;
  onLog?: (entry: BridgeLogEntry) => void;
  /**
   * Follows the bridge's own hops, for example with `openTelemetry()` of
   * `@twofold/server/opentelemetry` and of `@twofold/client/opentelemetry`: `server` each
   * downstream request, `client` each upstream one. Without `client`, an upstream request
   * carries the downstream trace context as it came; with it, the context the client hook
   * gives (a bridge span in the same trace).
   */
  instrumentation?: BridgeInstrumentation;
}

/**
 * The instrumentation of the bridge's two sides.
 *
 * @experimental
 */
export interface BridgeInstrumentation {
  /** Downstream requests, as the bridge serves them. */
  server?: ServerInstrumentation;
  /** Upstream requests, as the bridge sends them. */
  client?: ClientInstrumentation;
}

/**
 * Why a bridge ended: `close()` was called, the upstream connection ended (a stdio server
 * exited, an HTTP session was dropped; `error` says why), or the downstream host closed the
 * bridge's stdin (stdio bridges only).
 *
 * @experimental
 */
export type BridgeEnd =
  | { reason: 'closed' }
  | { reason: 'upstream-ended'; error?: Error }
  | { reason: 'downstream-ended' };

/**
 * What both kinds of bridge have once running.
 *
 * @experimental
 */
export interface RunningBridge {
  /** What era detection concluded about the upstream (persist it, pass it back as `verdict`). */
  readonly upstreamVerdict: EraVerdict;
  /** Settles once the bridge has ended and released everything, with the reason. */
  readonly closed: Promise<BridgeEnd>;
  /** Ends the bridge: the downstream side first, then the upstream (a stdio server is stopped). */
  close(): Promise<void>;
}

/**
 * Options of `startHttpBridge`.
 *
 * @experimental
 */
export interface HttpBridgeOptions extends BridgeUpstreamOptions {
  /** A loopback interface (`127.0.0.1`, `::1`, `localhost`) and port (0 picks a free one). */
  listen: { host: string; port: number };
  /**
   * Browser origins allowed to call the endpoint. Default: a request addressed to the loopback
   * host must come from a loopback origin when it names one (DNS-rebinding protection).
   */
  allowedOrigins?: readonly string[];
  /**
   * Makes the endpoint an OAuth 2.1 resource server (the server's `auth` option): downstream
   * clients need a bearer token it accepts. A function gets the endpoint's URL, known once it
   * listens (with port 0), to name the resource. Downstream tokens are verified and never
   * sent upstream: the upstream is reached with the upstream target's own authorization.
   */
  auth?: HttpAuthOptions | ((url: URL) => HttpAuthOptions);
}

/**
 * A running HTTP bridge.
 *
 * @experimental
 */
export interface HttpBridge extends RunningBridge {
  /** The dual-era Streamable HTTP endpoint, e.g. `http://127.0.0.1:8808/`. */
  readonly url: URL;
}

/**
 * Options of `startStdioBridge`.
 *
 * @experimental
 */
export interface StdioBridgeOptions extends BridgeUpstreamOptions {
  /** Where the host's messages come from. Default `process.stdin`. */
  input?: Readable;
  /** Where the bridge's messages go; nothing else may write there. Default `process.stdout`. */
  output?: Writable;
}

/**
 * A running stdio bridge.
 *
 * @experimental
 */
export type StdioBridge = RunningBridge;
