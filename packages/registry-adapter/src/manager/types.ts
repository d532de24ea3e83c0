/**
 * The public contract of `ServerManager`: its options, what it reports per server, and the
 * events through which every decision it takes is visible.
 */

import type { McpClientOptions, TransportKind } from '@twofold/client/experimental';
import type { Implementation } from '@twofold/protocol/experimental';
import type { HttpAuthorizer } from '@twofold/transports/experimental';
import type { McpConfig } from '../config/types';
import type { ProviderEvent } from '../import/types';
import type { NameRules } from '../names/types';
import type { InputResolver, ToolRegistry } from '../registry/types';

/**
 * Where a managed server is in its life:
 * - `disabled`: `enabled: false` in the config; never started;
 * - `stopped`: not running and no restart is due (not started yet, stopped, or it exited
 *   cleanly under the `on-failure` policy, or failed under `never`);
 * - `starting`: connecting and importing its tools;
 * - `running`: connected, its tools in the registry;
 * - `backoff`: failed, waiting to be restarted;
 * - `failed`: given up — a crash loop, or a failure a restart cannot mend (a configuration
 *   problem, a tool-name conflict under the `error` policy, an authorization failure).
 *
 * @experimental
 */
export type ManagedServerState =
  | 'disabled'
  | 'stopped'
  | 'starting'
  | 'running'
  | 'backoff'
  | 'failed';

/**
 * One server's status, as `ServerManager.status()` reports it.
 *
 * @experimental
 */
export interface ManagedServerStatus {
  name: string;
  state: ManagedServerState;
  /** The transport kind from the config entry. */
  type: 'stdio' | 'http' | 'sse';
  /** Once connected: what era detection concluded (or the stored verdict said). */
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  transport?: TransportKind;
  /** The process of a running stdio server. */
  pid?: number;
  /** Tools of this server in the registry. */
  tools: number;
  /** Restarts so far (manual and automatic). */
  restarts: number;
  /** Failures counted toward the crash-loop limit (within the policy's window). */
  recentFailures: number;
  /** Why the server is not running, when it failed or stopped. */
  reason?: string;
  /** ISO time the server entered its state. */
  since: string;
  /** In `backoff`: ISO time of the next start attempt. */
  nextStartAt?: string;
}

/**
 * Where a failure happened: while starting (connect and tool import), while running (the
 * process or session ended), or in a liveness check.
 *
 * @experimental
 */
export type FailurePhase = 'start' | 'run' | 'health';

/**
 * Everything a manager decides, as events; nothing is decided silently.
 *
 * @experimental
 */
export type ManagerEvent =
  | { type: 'server-starting'; server: string; attempt: number }
  | {
      type: 'server-started';
      server: string;
      era: 'modern' | 'legacy';
      protocolVersion: string;
      transport: TransportKind;
      tools: number;
      /** Whether a stored era verdict let it skip probing. */
      usedVerdict: boolean;
    }
  | { type: 'server-failed'; server: string; phase: FailurePhase; error: Error; retry: boolean }
  | { type: 'server-exited'; server: string; exitCode: number | null; signal: string | null }
  | { type: 'restart-scheduled'; server: string; delayMs: number; attempt: number }
  | { type: 'crash-loop'; server: string; failures: number; windowMs: number }
  | { type: 'server-stopped'; server: string; reason: string }
  | { type: 'health-check-failed'; server: string; error: Error }
  | { type: 'verdict-saved'; server: string; era: 'modern' | 'legacy'; protocolVersion: string }
  | { type: 'verdict-dropped'; server: string; reason: string }
  | { type: 'server-added'; server: string }
  | { type: 'server-updated'; server: string }
  | { type: 'server-removed'; server: string }
  | {
      type: 'reloaded';
      added: string[];
      removed: string[];
      updated: string[];
      unchanged: string[];
    }
  | { type: 'reload-failed'; error: Error }
  | { type: 'config-write-failed'; error: Error }
  | { type: 'tools'; event: ProviderEvent };

/**
 * Options of `ServerManager`.
 *
 * @experimental
 */
export interface ServerManagerOptions {
  /** The registry the servers' tools go into. Default: a new `InMemoryToolRegistry`. */
  registry?: ToolRegistry;
  /** Host name rules of the registry (default `^[A-Za-z0-9_-]{1,64}$`). */
  nameRules?: Partial<NameRules>;
  /** Answers input requests of every server's tools (elicitation, sampling, roots). */
  resolver?: InputResolver;
  /** What the clients call themselves. Default `twofold-registry-adapter`. */
  clientInfo?: Implementation;
  /**
   * Further client options for every server (probe timeout, request timeout, log level,
   * cache). The era, version, verdict and connect timeout come from the config entry.
   */
  client?: Partial<Omit<McpClientOptions, 'era' | 'protocolVersion' | 'verdict'>>;
  /** Where `${env:NAME}` references and `envAllow` names are looked up. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives every event (errors it throws are ignored). */
  onEvent?: (event: ManagerEvent) => void;
  /** Receives one human-readable line per failure, naming the server and the reason. */
  log?: (line: string) => void;
  /** Receives each stdio server's stderr as it arrives. */
  stderr?: (server: string, chunk: string) => void;
  /**
   * Authorization for HTTP server `server` (e.g. one `OAuthProvider` with a shared token store);
   * `undefined` sends only the entry's `headers`. A server that needs a person to log in and
   * has no handler fails to start with an `AuthorizationError`, which is not retried.
   */
  auth?: (server: string) => HttpAuthorizer | undefined;
  /** Re-read the config file on change and reconcile (with `fromFile`). Default false. */
  watch?: boolean;
  /** Source of randomness for restart jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/**
 * The config a manager starts from: parsed, with the raw document it was read from (edits are
 * made to the raw document, so a written file keeps only its user's fields).
 *
 * @experimental
 */
export interface ManagerConfigSource {
  config: McpConfig;
  raw?: Record<string, unknown>;
  /** The text `raw` was read from, so a file watcher can tell a real change from none. */
  text?: string;
  /** The file it came from; edits and verdicts are written back to it. */
  path?: string;
}
