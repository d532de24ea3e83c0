/**
 * `runDoctor`: connects with `McpClient` (era `auto`) while sending its own raw
 * `server/discover` probe, then runs every check in order. Nothing a server does can make it
 * throw: each check's errors become its `fail`, each step has a timeout, each check a budget,
 * and the whole run a deadline. Every process and session it opened is closed before it returns.
 */
import { type ClientWarning, McpClient, type ServerTarget } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import {
  type Implementation,
  type JsonRpcRequest,
  LATEST_VERSION,
} from '@twofold/protocol/experimental';
import { describeTarget } from '../cli/redact';
import { CHECKS, type CheckDefinition } from './checks/index';
import { createContext, type DoctorContext, openRawChannel, type ProbeRecord } from './context';
import { summarizeChecks } from './format';
import { modernRequest, type RawChannel, type RawExchange } from './raw/channel';
import { type SpecRef, specUrl } from './spec-refs';
import type { CheckResult, DoctorOptions, DoctorReport, DoctorTarget } from './types';
import { messageOf, withTimeout } from './util';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
/** A process that has not spoken yet gets this many steps' worth of time to start. */
const STARTUP_STEPS = 3;
const DEFAULT_MAX_DURATION_MS = 120_000;
/** A check may take this many steps' worth of time before it is cut off. */
const STEPS_PER_CHECK = 6;

/**
 * Checks `target` against the MCP specification and reports a pass / warn / fail / skip per
 * check (see types.ts for the check ids). Never rejects because of the server; a server that
 * cannot be reached yields a report whose `era-detection` fails and whose other checks skip.
 *
 * @experimental
 */
export async function runDoctor(
  target: DoctorTarget,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  // Only a process the doctor starts has a start-up; an HTTP endpoint is up or it is not.
  const startupMs =
    target.kind === 'stdio' ? (options.startupTimeoutMs ?? STARTUP_STEPS * timeoutMs) : 0;
  const deadline = Date.now() + (options.maxDurationMs ?? DEFAULT_MAX_DURATION_MS);
  const clientInfo = options.clientInfo ?? { name: 'twofold-doctor', version: __TWOFOLD_VERSION__ };
  const clientWarnings: ClientWarning[] = [];

  // The normal exchange and the raw probe run side by side: a silent legacy server then costs
  // one probe timeout, not two.
  const connecting = connectClient(target, {
    clientInfo,
    timeoutMs,
    startupMs,
    probeTimeoutMs,
    clientWarnings,
  });
  const [connected, probe] = await Promise.all([
    connecting,
    sendProbe(target, clientInfo, { timeoutMs, startupMs, probeTimeoutMs }, connecting),
  ]);
  const { context, closeAll } = createContext({
    target,
    timeoutMs,
    startupMs,
    probeTimeoutMs,
    clientInfo,
    clientWarnings,
    probe,
    ...connected,
  });

  const checks: CheckResult[] = [];
  try {
    // The probe's process serves the modern checks; a legacy server's is of no further use.
    if (context.era !== 'modern') await probe.channel?.close();
    for (const definition of CHECKS) {
      const result =
        Date.now() >= deadline
          ? resultOf(definition, 'skip', ['not run: the doctor ran out of its time budget'])
          : await runCheck(
              definition,
              context,
              Math.min(timeoutMs * STEPS_PER_CHECK + startupMs, deadline - Date.now()),
            );
      checks.push(result);
      try {
        options.onCheck?.(result);
      } catch {
        // A faulty listener must not stop the run.
      }
    }
    return buildReport(target, context, checks);
  } finally {
    await context.client?.close().catch(() => undefined);
    await closeAll();
  }
}

type Connected = { client: McpClient } | { connectError: string };

/** How long the doctor's client may take to connect to a process it started: the handshake. */
function connectBudgetMs(bounds: { timeoutMs: number; startupMs: number; probeTimeoutMs: number }) {
  return bounds.startupMs + bounds.timeoutMs + 2 * bounds.probeTimeoutMs;
}

async function connectClient(
  target: DoctorTarget,
  options: {
    clientInfo: Implementation;
    timeoutMs: number;
    startupMs: number;
    probeTimeoutMs: number;
    clientWarnings: ClientWarning[];
  },
): Promise<Connected> {
  try {
    const client = await McpClient.connect(clientTarget(target), {
      clientInfo: options.clientInfo,
      era: 'auto',
      probeTimeoutMs: options.probeTimeoutMs,
      connectTimeoutMs: connectBudgetMs(options),
      // The handshake meets a process that may still be starting; the one call a check makes
      // through the client passes the step's own timeout.
      requestTimeoutMs: options.startupMs + options.timeoutMs,
      // The doctor wants every answer fresh from the server.
      cache: false,
      onWarning: (warning) => options.clientWarnings.push(warning),
    });
    return { client };
  } catch (error) {
    return { connectError: messageOf(error) };
  }
}

function clientTarget(target: DoctorTarget): ServerTarget {
  if (target.kind === 'http') {
    return httpServer({ url: target.url, ...(target.headers ? { headers: target.headers } : {}) });
  }
  return stdioServer({
    command: target.command,
    ...(target.args ? { args: target.args } : {}),
    ...(target.env ? { env: target.env } : {}),
    ...(target.cwd ? { cwd: target.cwd } : {}),
    closeTimeouts: { stdinEndMs: 1000, sigtermMs: 1000 },
  });
}

/** The doctor's own era probe: `server/discover` at the newest version, answered or not. */
async function sendProbe(
  target: DoctorTarget,
  clientInfo: Implementation,
  bounds: { timeoutMs: number; startupMs: number; probeTimeoutMs: number },
  connecting: Promise<Connected>,
): Promise<ProbeRecord> {
  const version = LATEST_VERSION;
  try {
    const channel = await openRawChannel(target, 'modern', bounds);
    const message = modernRequest('server/discover', {}, version, clientInfo);
    const exchange =
      target.kind === 'http'
        ? await channel.send(message, { timeoutMs: bounds.timeoutMs })
        : await probeOnStdio(channel, message, bounds, connecting);
    return { version, exchange, channel };
  } catch (error) {
    return { version, exchange: { others: [], failure: messageOf(error) } };
  }
}

/**
 * On stdio silence is an answer (legacy), but a process that is still starting is not silent.
 * The probe listens for `probeTimeoutMs` and, past that, until the doctor's client has connected
 * to its own process of the same server, started at the same moment: once that one has answered,
 * start-up is over. A client that found a modern server leaves the probe's process the budget
 * the client had for its own (such a server must answer, and on a busy machine the second of
 * two processes can start as slowly as the first), as does a client that could not connect; a
 * legacy verdict ends the wait.
 */
async function probeOnStdio(
  channel: RawChannel,
  message: JsonRpcRequest,
  bounds: { timeoutMs: number; startupMs: number; probeTimeoutMs: number },
  connecting: Promise<Connected>,
): Promise<RawExchange> {
  const { probeTimeoutMs } = bounds;
  const sentAt = Date.now();
  // The channel adds the start-up allowance to a process that has not spoken yet.
  const answered = channel.send(message, {
    timeoutMs: connectBudgetMs(bounds) - bounds.startupMs,
  });
  const silent = connecting.then(async (connected): Promise<RawExchange> => {
    // Modern: the process must answer. No connection: it had the same budget, so its own
    // timeout (naming the start-up allowance) says it best.
    if (!('client' in connected) || connected.client.era === 'modern') return answered;
    const left = sentAt + probeTimeoutMs - Date.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left).unref());
    return { others: [], failure: `no answer within ${Date.now() - sentAt} ms` };
  });
  return Promise.race([answered, silent]);
}

async function runCheck(
  definition: CheckDefinition,
  context: DoctorContext,
  budgetMs: number,
): Promise<CheckResult> {
  try {
    const outcome = await withTimeout(
      definition.run(context),
      budgetMs,
      `the check did not finish within ${budgetMs} ms`,
    );
    return resultOf(definition, outcome.status, outcome.details, outcome.spec);
  } catch (error) {
    return resultOf(definition, 'fail', [`the check could not complete: ${messageOf(error)}`]);
  }
}

function resultOf(
  definition: CheckDefinition,
  status: CheckResult['status'],
  details: string[],
  spec: SpecRef = definition.spec,
): CheckResult {
  return {
    id: definition.id,
    title: definition.title,
    status,
    spec,
    specUrl: specUrl(spec),
    details,
  };
}

function buildReport(
  target: DoctorTarget,
  context: DoctorContext,
  checks: CheckResult[],
): DoctorReport {
  const client = context.client;
  const report: DoctorReport = {
    target: describeTarget(target),
    era: context.era,
    supportedVersions: supportedVersionsOf(context),
    checks,
    summary: summarizeChecks(checks),
  };
  if (client) report.protocolVersion = client.protocolVersion;
  const info = client?.serverInfo;
  if (info) report.serverInfo = info;
  return report;
}

function supportedVersionsOf(context: DoctorContext): string[] {
  const client = context.client;
  if (!client) return [];
  if (context.era === 'legacy') return context.legacyAccepted ?? [client.protocolVersion];
  const listed = client.verdict.discover?.supportedVersions;
  return Array.isArray(listed) ? listed.filter((v) => typeof v === 'string') : [];
}

/**
 * The checks `runDoctor` runs, in order, with their titles and default spec pages (for help
 * text or documentation; a report may cite a different page when the era calls for it).
 *
 * @experimental
 */
export function listDoctorChecks(): Pick<CheckResult, 'id' | 'title' | 'spec' | 'specUrl'>[] {
  return CHECKS.map(({ id, title, spec }) => ({ id, title, spec, specUrl: specUrl(spec) }));
}
