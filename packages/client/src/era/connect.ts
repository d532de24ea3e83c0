/**
 * `connectSession`: finds the era a server speaks (DIGEST §4.2) — or takes it from a pin or a
 * prior verdict — and returns the session for it. The whole attempt is bounded by
 * `connectTimeoutMs`, and every connection it does not keep is closed before it settles.
 */
import {
  type McpHeaderParam,
  MODERN_VERSIONS,
  type ModernVersion,
} from '@twofold/protocol/experimental';
import type { EraSession, SessionHooks } from '../session/types';
import type { EraChoice, EraVerdict, ServerTarget } from '../types';
import { connectHttp } from './http';
import { resolvePlan } from './plan';
import { ConnectScope } from './scope';
import type { ConnectContext } from './steps';
import { connectStream } from './stream';

/**
 * How `connectSession` connects.
 *
 * @experimental
 */
export interface ConnectConfig {
  /** `auto` probes; `modern` / `legacy` go straight to that era. */
  era: EraChoice;
  /** A pinned version: its era wins over `era`, and it is offered as it is. */
  protocolVersion?: string;
  /** A prior verdict: used (no probe) when its `serverKey` is the target's key. */
  verdict?: EraVerdict;
  /**
   * How long the stream probe waits alone: silence past it sends `initialize` beside the still
   * listening probe (see `stream-probe.ts`). Over HTTP the probe is bounded by the connect
   * budget and the request timeout instead: a timeout there is an error, never a verdict.
   */
  probeTimeoutMs: number;
  /** How long the whole attempt may take (`0` or `Infinity`: no limit). */
  connectTimeoutMs: number;
  hooks: SessionHooks;
  /** The `x-mcp-header` parameters of a tool, for modern HTTP transports. */
  headerParams: (tool: string) => readonly McpHeaderParam[] | undefined;
  /**
   * Modern versions to offer, newest first (default `MODERN_VERSIONS`). Tests offer a version
   * the server does not know first, to exercise the -32022 renegotiation.
   */
  modernVersions?: readonly string[];
}

/**
 * Connects to `target` in the era the server speaks and returns the session. Rejects with a
 * `LocalError` (`REQUEST_TIMEOUT` naming the phase when `connectTimeoutMs` passed,
 * `UNAUTHORIZED`, `HTTP_ERROR`, `NO_MUTUAL_VERSION`, `PROCESS_EXITED`, ...) or a
 * `ProtocolError`, after closing everything it opened.
 *
 * @experimental
 */
export async function connectSession(
  target: ServerTarget,
  config: ConnectConfig,
): Promise<EraSession> {
  const modernVersions = (config.modernVersions ?? MODERN_VERSIONS) as readonly ModernVersion[];
  const plan = resolvePlan({
    serverKey: target.key,
    era: config.era,
    protocolVersion: config.protocolVersion,
    verdict: config.verdict,
    modernVersions,
  });
  const scope = new ConnectScope(target, config.connectTimeoutMs, config.hooks);
  const context: ConnectContext = {
    target,
    hooks: config.hooks,
    scope,
    probeTimeoutMs: config.probeTimeoutMs,
    modernVersions,
  };
  return scope.run(() =>
    target.kind === 'stream'
      ? connectStream(context, target, plan)
      : connectHttp(context, target, plan, { headerParams: config.headerParams }),
  );
}
