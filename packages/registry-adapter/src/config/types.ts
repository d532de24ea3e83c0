/**
 * The shape of an `mcp.json` once parsed: the common `mcpServers` format plus twofold's fields.
 * `mcpConfigSchema` (zod) and `mcpConfigJsonSchema` validate it.
 */
import type { StoredEraVerdict } from '@twofold/client/experimental';
import type { ToolFilter } from '../names/types';

/**
 * When a server that stopped is started again.
 *
 * @experimental
 */
export interface RestartPolicy {
  /** `on-failure` (default): after a crash or failed health check; `always`: also after a clean exit; `never`. */
  mode: 'on-failure' | 'always' | 'never';
  /** First delay before a restart. Default 500. */
  initialDelayMs: number;
  /** Largest delay. Default 30000. */
  maxDelayMs: number;
  /** Growth of the delay per consecutive failure. Default 2. */
  factor: number;
  /** Random spread of each delay, 0–1 (0.2 = ±20%). Default 0.2. */
  jitter: number;
  /** Give up after this many failures within `windowMs` (crash loop). Default 5. */
  maxFailures: number;
  /** Default 60000. */
  windowMs: number;
  /** The failure count resets only after this long up without failing. Default 30000. */
  stableAfterMs: number;
}

/**
 * What every server entry may say besides how to reach it.
 *
 * @experimental
 */
export interface ServerEntryCommon {
  /** Default true. A disabled server is kept in the file but never started. */
  enabled: boolean;
  /** Default `auto`. */
  era: 'auto' | 'modern' | 'legacy';
  /** Pins the protocol version. */
  protocolVersion?: string;
  restart: RestartPolicy;
  tools?: ToolFilter;
  /** How long connecting may take, in milliseconds. Default 30000. */
  connectTimeoutMs: number;
  /**
   * Liveness check period (`server/discover` on modern servers, `ping` on legacy ones), for
   * stdio and HTTP alike. Default 30000; 0 turns it off.
   */
  healthIntervalMs: number;
}

/**
 * A server started as a child process. `env` values may be `${env:NAME}` references; the child
 * gets only `env` plus the parent variables named in `envAllow` (and a small safe default set).
 *
 * @experimental
 */
export interface StdioServerEntry extends ServerEntryCommon {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  envAllow?: string[];
  cwd?: string;
}

/**
 * A server reached over HTTP. `headers` values may be `${env:NAME}` references.
 *
 * @experimental
 */
export interface HttpServerEntry extends ServerEntryCommon {
  /** `http` (Streamable HTTP, either era) or `sse` (2024-11-05 HTTP+SSE). */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

/**
 * One entry of `mcpServers`, with defaults filled in.
 *
 * @experimental
 */
export type ServerEntry = StdioServerEntry | HttpServerEntry;

/**
 * A persisted era verdict, kept beside the server entries under `verdicts` so reconnects skip
 * probing (`expiresAt`: when the discover result inside goes stale).
 *
 * @experimental
 */
export interface StoredVerdict extends StoredEraVerdict {
  /** `JSON` of the entry fields the verdict was learned with; a changed entry drops it. */
  entryFingerprint: string;
}

/**
 * A whole `mcp.json`, parsed.
 *
 * @experimental
 */
export interface McpConfig {
  mcpServers: Record<string, ServerEntry>;
  /** Conflict policy of the aggregated tool registry. Default `prefix-on-collision`. */
  conflictPolicy: 'error' | 'first-wins' | 'prefix-on-collision' | 'always-prefix';
  verdicts: Record<string, StoredVerdict>;
}
