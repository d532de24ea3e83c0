/**
 * What every check can see: the target, the connected `McpClient` (the normal exchange), the
 * raw probe's outcome, a raw modern channel, and a way to open fresh raw channels. The doctor
 * owns every channel it opens and closes them all when the run ends.
 */
import type { ClientWarning, McpClient } from '@twofold/client/experimental';
import type { DiscoverResult, Implementation } from '@twofold/protocol/experimental';
import {
  modernRequest,
  type RawChannel,
  type RawEra,
  type RawExchange,
  type RawSendOptions,
} from './raw/channel';
import { openHttpChannel } from './raw/http-channel';
import { openStdioChannel } from './raw/stdio-channel';
import type { DoctorTarget } from './types';

/** The doctor's own `server/discover` probe (DIGEST §2.1, §4.2) and how it was answered. */
export interface ProbeRecord {
  /** The version the probe named. */
  version: string;
  exchange: RawExchange;
  /** stdio: the process the probe went to (kept as the raw modern channel when modern). */
  channel?: RawChannel;
  /** Why the probe could not even be sent (the process did not start, say). */
  failure?: string;
}

/** The state of one run, shared by its checks. */
export interface DoctorContext {
  readonly target: DoctorTarget;
  readonly timeoutMs: number;
  /** stdio: what a process that has not spoken yet may take on top of a step (its start-up). */
  readonly startupMs: number;
  readonly probeTimeoutMs: number;
  readonly clientInfo: Implementation;
  /** The client of the normal exchange; absent when it could not connect. */
  readonly client?: McpClient;
  /** Why the client could not connect. */
  readonly connectError?: string;
  /** What the client noticed and worked around (tools it left out, say). */
  readonly clientWarnings: readonly ClientWarning[];
  readonly era: 'modern' | 'legacy' | 'unknown';
  readonly probe: ProbeRecord;
  /** The modern version requests are sent with (the client's negotiated one). */
  readonly modernVersion: string;
  /** Versions the server was seen to accept in legacy `initialize` (filled by that check). */
  legacyAccepted?: string[];
  /** Opens a fresh raw channel (a new process on stdio); closed when the run ends. */
  openChannel(era: RawEra): Promise<RawChannel>;
  /** The shared raw modern channel (on stdio: the probe's process). */
  sharedChannel(): Promise<RawChannel>;
  /** Sends a modern request on the shared raw modern channel. */
  modernCall(
    method: string,
    params?: Record<string, unknown>,
    options?: Partial<RawSendOptions> & { version?: string },
  ): Promise<RawExchange>;
  /** The raw `server/discover` result (modern servers), fetched once. */
  discover(): Promise<DiscoverOutcome>;
  /** Memoized values computed by one check and reused by others. */
  readonly memo: Map<string, Promise<unknown>>;
}

/** The raw discover result, or why there is none. */
export type DiscoverOutcome =
  | { ok: true; result: DiscoverResult & Record<string, unknown>; exchange: RawExchange }
  | { ok: false; reason: string; exchange?: RawExchange };

/** What `createContext` is built from. */
export interface ContextInit {
  target: DoctorTarget;
  timeoutMs: number;
  startupMs: number;
  probeTimeoutMs: number;
  clientInfo: Implementation;
  client?: McpClient;
  connectError?: string;
  clientWarnings: ClientWarning[];
  probe: ProbeRecord;
}

/** A run's context and the function that closes everything it opened. */
export function createContext(init: ContextInit): {
  context: DoctorContext;
  closeAll: () => Promise<void>;
} {
  const opened: RawChannel[] = [];
  if (init.probe.channel) opened.push(init.probe.channel);
  const era = init.client ? init.client.era : 'unknown';
  const modernVersion =
    init.client?.era === 'modern' ? init.client.protocolVersion : init.probe.version;
  let modernChannel: Promise<RawChannel> | undefined;

  let ended = false;
  const openChannel = async (channelEra: RawEra): Promise<RawChannel> => {
    if (ended) throw new Error('the doctor run has ended');
    const channel = await openRawChannel(init.target, channelEra, init);
    // A check cut off by its budget may still be starting a process when the run ends.
    if (ended) {
      await channel.close();
      throw new Error('the doctor run has ended');
    }
    opened.push(channel);
    return channel;
  };

  const shared = (): Promise<RawChannel> => {
    // On stdio the probe's process is reused: modern requests are stateless, so one is enough.
    modernChannel ??= init.probe.channel
      ? Promise.resolve(init.probe.channel)
      : openChannel('modern');
    return modernChannel;
  };

  const memo = new Map<string, Promise<unknown>>();
  const context: DoctorContext = {
    ...init,
    era,
    modernVersion,
    memo,
    openChannel,
    sharedChannel: shared,
    async modernCall(method, params = {}, options = {}) {
      const channel = await shared();
      const version = options.version ?? modernVersion;
      const message = modernRequest(method, params, version, init.clientInfo);
      return channel.send(message, {
        timeoutMs: options.timeoutMs ?? init.timeoutMs,
        ...(options.headers ? { headers: options.headers } : {}),
      });
    },
    discover() {
      return remember(memo, 'discover', () => fetchDiscover(context));
    },
  };
  const closeAll = async () => {
    ended = true;
    await Promise.all(opened.splice(0).map((channel) => channel.close().catch(() => undefined)));
  };
  return { context, closeAll };
}

/** Opens a raw channel to the target: an HTTP channel, or a new stdio process. */
export function openRawChannel(
  target: DoctorTarget,
  era: RawEra,
  { timeoutMs, startupMs }: { timeoutMs: number; startupMs: number },
): Promise<RawChannel> {
  if (target.kind === 'http') {
    return Promise.resolve(
      openHttpChannel({
        url: target.url,
        era,
        timeoutMs,
        ...(target.headers ? { headers: target.headers } : {}),
      }),
    );
  }
  return openStdioChannel({
    command: target.command,
    timeoutMs,
    startupMs,
    ...(target.args ? { args: target.args } : {}),
    ...(target.env ? { env: target.env } : {}),
    ...(target.cwd ? { cwd: target.cwd } : {}),
  });
}

/** The value memoized under `key`, computed once. */
export function remember<T>(
  memo: Map<string, Promise<unknown>>,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = compute();
    memo.set(key, value);
  }
  return value;
}

async function fetchDiscover(context: DoctorContext): Promise<DiscoverOutcome> {
  const { probe } = context;
  // The probe already asked, with the version the client settled on: reuse its answer.
  const probed = probe.version === context.modernVersion && probe.exchange.response;
  const exchange = probed ? probe.exchange : await context.modernCall('server/discover');
  const response = exchange.response;
  if (response && 'result' in response) {
    return {
      ok: true,
      result: response.result as DiscoverResult & Record<string, unknown>,
      exchange,
    };
  }
  const reason =
    response && 'error' in response
      ? `server/discover answered error ${response.error.code}: ${response.error.message}`
      : `server/discover got no answer (${exchange.failure ?? 'no response'})`;
  return { ok: false, reason, exchange };
}
