/**
 * The public types of the doctor engine: what it checks (a target), how (options), and what it
 * reports.
 *
 * ## The `--json` contract
 *
 * `twofold doctor --json` prints a {@link DoctorReport} as JSON. CI scripts read it, so its shape
 * is a contract: fields are only ever added, and each check keeps its `id` forever (a check that
 * goes away leaves its id unused). The check ids, in the order they run:
 *
 * | id | verifies |
 * |---|---|
 * | `era-detection` | what `era: 'auto'` concluded, and that the `server/discover` probe was answered as DIGEST §4 requires |
 * | `supported-versions` | the versions the server offers (modern `supportedVersions`, legacy negotiation) |
 * | `discover-shape` | the `server/discover` result against the 2026-07-28 `DiscoverResult` schema |
 * | `result-type` | `resultType` on every modern result received |
 * | `cache-hints` | `ttlMs` / `cacheScope` on cacheable modern results (discover, lists, `resources/read`) |
 * | `list-order` | the same order across two full listings of each advertised list |
 * | `pagination` | cursors followed to the end (page cap, repeated cursors), invalid cursor → -32602 |
 * | `tool-names` | tool names follow the spec's name rule and are unique |
 * | `tool-header-annotations` | `x-mcp-header` annotations of tool input schemas are valid |
 * | `header-mismatch` | `Mcp-Method` / `Mcp-Name` headers that disagree with the body → 400 + -32020 |
 * | `origin-rejected` | a foreign `Origin` header → 403 |
 * | `unsupported-version` | an unknown protocol version → -32022 listing the supported versions |
 * | `notifications-unanswered` | a notification gets no JSON-RPC response (HTTP: 202, empty body) |
 * | `legacy-initialize` | legacy `initialize` version selection (unknown future version, each legacy version) |
 * | `skills-extension` | when declared, `skills/list` / `skills/get` answers and every listed skill file's digest, size and frontmatter (SEP-2640) |
 * | `tasks-extension` | when declared, `tasks/get` of an unknown task → -32602 (-32021 without the extension declared); `tasks/result`, `tasks/list` → -32601 (SEP-2663) |
 *
 * Every report lists every id above, with `skip` (and the reason in `details`) when a check does
 * not apply to the server's era or transport.
 *
 * @packageDocumentation
 */
import type { Implementation } from '@twofold/protocol/experimental';

/**
 * The server to check: an HTTP endpoint, or a command started as a stdio server (no shell).
 *
 * @experimental
 */
export type DoctorTarget =
  | {
      kind: 'http';
      /** The MCP endpoint. */
      url: string;
      /** Extra request headers (e.g. `Authorization`); their values never appear in a report. */
      headers?: Record<string, string>;
    }
  | {
      kind: 'stdio';
      command: string;
      args?: string[];
      /** Variables set for the server over the default allow-list; values are never reported. */
      env?: Record<string, string>;
      cwd?: string;
    };

/**
 * Options of `runDoctor`.
 *
 * @experimental
 */
export interface DoctorOptions {
  /** How long one step (one request, one process start) may take, in milliseconds. Default 10000. */
  timeoutMs?: number;
  /**
   * How long the `server/discover` era probe waits before a silent server counts as legacy
   * (DIGEST §2.1). Default 3000, as `McpClient`'s.
   */
  probeTimeoutMs?: number;
  /**
   * stdio: how long a server process the doctor starts may take to start, on top of the first
   * step on it. Each step is timed from when the process could answer, so a slow start-up is not
   * reported as a server that breaks a MUST. Default three steps (`3 × timeoutMs`, 30000).
   */
  startupTimeoutMs?: number;
  /** Upper bound of the whole run, in milliseconds; checks left then are skipped. Default 120000. */
  maxDurationMs?: number;
  /** Called as each check finishes, in run order (for live output). Errors it throws are ignored. */
  onCheck?: (result: CheckResult) => void;
  /** How the doctor introduces itself to the server. Default `twofold-doctor` and this version. */
  clientInfo?: Implementation;
}

/**
 * The outcome of one check. `warn` is for SHOULD-level findings, `fail` for MUST-level ones (and
 * for checks that could not run because the server misbehaved), `skip` for checks that do not
 * apply.
 *
 * @experimental
 */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/**
 * One check of a report.
 *
 * @experimental
 */
export interface CheckResult {
  /** Stable kebab-case id (see the table at the top of this file). */
  id: string;
  title: string;
  status: CheckStatus;
  /** The spec page the check rests on, e.g. `2026-07-28/server/discover`. */
  spec: string;
  /** The same page on modelcontextprotocol.io. */
  specUrl: string;
  /** Findings, one sentence each: what was sent, what came back, what the spec asks. */
  details: string[];
}

/**
 * The era the server was found to speak; `unknown` when the doctor could not connect.
 *
 * @experimental
 */
export type DoctorEra = 'modern' | 'legacy' | 'unknown';

/**
 * What `runDoctor` found.
 *
 * @experimental
 */
export interface DoctorReport {
  /** The target, without secrets: no header or environment values, no URL credentials. */
  target: string;
  era: DoctorEra;
  /** The version the doctor's client negotiated, when it connected. */
  protocolVersion?: string;
  /**
   * Versions the server offers: modern servers' `supportedVersions`; for legacy servers, the
   * versions it accepted in `initialize`.
   */
  supportedVersions: string[];
  serverInfo?: Implementation;
  checks: CheckResult[];
  summary: DoctorSummary;
}

/**
 * How many checks ended with each status.
 *
 * @experimental
 */
export interface DoctorSummary {
  pass: number;
  warn: number;
  fail: number;
  skip: number;
}
