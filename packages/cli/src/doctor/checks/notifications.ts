/**
 * `notifications-unanswered`: a notification gets no JSON-RPC response. Over HTTP an accepted
 * notification gets 202 with no body. On stdio there is no status, so the notifications are
 * followed by a request: the server answers in order, so a response to a notification would
 * arrive before the request's answer. Dual-era servers are checked in both lineages: the
 * modern one statelessly, the legacy one in a session of the doctor's own, where
 * `notifications/initialized` is the first notification.
 */
import {
  createNotification,
  isJsonRpcResponse,
  isLegacyVersion,
  type JsonRpcMessage,
  type JsonRpcNotification,
  MCP_METHOD_HEADER,
  MCP_PROTOCOL_VERSION_HEADER,
} from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import {
  createPing,
  describeExchange,
  initializeRequest,
  modernRequest,
  type RawChannel,
  type RawExchange,
  resultOf,
} from '../raw/channel';
import { SPEC } from '../spec-refs';
import { listOf } from '../util';
import { type CheckDefinition, Findings, notConnected, skip } from './define';

/** Cancelling a request that is not in flight: a notification every server must ignore. */
function cancelNotInFlight(): JsonRpcNotification {
  return createNotification('notifications/cancelled', {
    requestId: 'twofold-doctor-not-in-flight',
    reason: 'twofold doctor: checking that notifications get no response',
  });
}

export const notificationsUnanswered: CheckDefinition = {
  id: 'notifications-unanswered',
  title: 'Notifications left unanswered',
  spec: SPEC.notifications,
  async run(context) {
    const client = context.client;
    if (!client) return notConnected(context);
    if (context.era === 'legacy' && client.verdict.transport === 'http+sse') {
      return skip('not probed on the 2024-11-05 HTTP+SSE transport');
    }
    const findings = new Findings();
    if (context.era === 'modern') await checkModern(context, findings);
    const legacyVersion = await legacyVersionOf(context);
    if (legacyVersion !== undefined) await checkLegacy(context, findings, legacyVersion);
    const spec = context.era === 'modern' ? modernSpec(context) : SPEC.legacyNotifications;
    return findings.outcome(spec);
  },
};

function modernSpec(context: DoctorContext) {
  return context.target.kind === 'http' ? SPEC.httpNotifications : SPEC.notifications;
}

/** The legacy version to open a session with, when the server speaks legacy at all. */
async function legacyVersionOf(context: DoctorContext): Promise<string | undefined> {
  const client = context.client;
  if (!client) return undefined;
  if (context.era === 'legacy') return client.protocolVersion;
  const discover = await context.discover();
  const listed = discover.ok ? discover.result.supportedVersions : undefined;
  return Array.isArray(listed) ? listed.find(isLegacyVersion) : undefined;
}

async function checkModern(context: DoctorContext, findings: Findings): Promise<void> {
  const cancelled = cancelNotInFlight();
  const channel = await context.sharedChannel();
  if (context.target.kind === 'http') {
    // A notification has no `_meta` to mirror: the version and method headers are set by hand.
    const exchange = await channel.send(cancelled, {
      timeoutMs: context.timeoutMs,
      headers: {
        [MCP_PROTOCOL_VERSION_HEADER]: context.modernVersion,
        [MCP_METHOD_HEADER]: cancelled.method,
      },
    });
    judgeHttp(findings, `modern ${cancelled.method}`, exchange);
    return;
  }
  const sentinel = modernRequest('server/discover', {}, context.modernVersion, context.clientInfo);
  await judgeStdio(context, findings, channel, 'modern', [cancelled], sentinel);
}

async function checkLegacy(
  context: DoctorContext,
  findings: Findings,
  version: string,
): Promise<void> {
  const channel = await context.openChannel('legacy');
  try {
    const init = await channel.send(initializeRequest(version, context.clientInfo), {
      timeoutMs: context.timeoutMs,
    });
    if (!resultOf(init)) {
      findings.fail(
        `legacy: initialize ${version} for a session of the doctor's own → ${describeExchange(init)}`,
      );
      return;
    }
    const notifications = [createNotification('notifications/initialized'), cancelNotInFlight()];
    if (context.target.kind === 'http') {
      for (const notification of notifications) {
        const exchange = await channel.send(notification, { timeoutMs: context.timeoutMs });
        judgeHttp(findings, `legacy ${notification.method}`, exchange);
      }
    } else {
      await judgeStdio(context, findings, channel, 'legacy', notifications, createPing());
    }
  } finally {
    await channel.close();
  }
}

function judgeHttp(findings: Findings, sent: string, exchange: RawExchange): void {
  const status = exchange.http?.status;
  if (exchange.response) {
    findings.fail(
      `${sent} POST → ${describeExchange(exchange)}: a notification MUST NOT get a JSON-RPC response`,
    );
  } else if (status === 202 && !exchange.http?.bodyPreview) {
    findings.note(`${sent} POST → HTTP 202 with no body, as required`);
  } else if (status !== undefined && status >= 200 && status < 300) {
    findings.fail(
      `${sent} POST → ${describeExchange(exchange)}: an accepted notification MUST get 202 with no body`,
    );
  } else if (status !== undefined && status >= 400 && status < 500) {
    findings.note(
      `${sent} POST → HTTP ${status}: refused, which a server that cannot accept a notification may do`,
    );
  } else {
    findings.fail(`${sent} POST → ${describeExchange(exchange)}`);
  }
}

async function judgeStdio(
  context: DoctorContext,
  findings: Findings,
  channel: RawChannel,
  lineage: 'modern' | 'legacy',
  notifications: JsonRpcMessage[],
  sentinel: JsonRpcMessage,
): Promise<void> {
  for (const notification of notifications) {
    await channel.send(notification, { timeoutMs: context.timeoutMs });
  }
  const exchange = await channel.send(sentinel, { timeoutMs: context.timeoutMs });
  const sent = `${lineage} ${listOf(notifications.map((n) => (isJsonRpcResponse(n) ? '?' : n.method)))}`;
  const strays = exchange.others.filter(isJsonRpcResponse);
  if (strays.length > 0) {
    findings.fail(
      `${sent} drew ${strays.length} response(s): ${JSON.stringify(strays[0]).slice(0, 160)}`,
    );
  } else if (!exchange.response) {
    findings.fail(
      `the request sent after ${sent} got no answer (${exchange.failure ?? 'no response'})`,
    );
  } else {
    findings.note(`${sent}: no response came back before the answer to the next request`);
  }
}
