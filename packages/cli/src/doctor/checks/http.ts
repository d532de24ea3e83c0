/**
 * The Streamable HTTP probes: `header-mismatch` (request metadata headers that disagree with the
 * body get 400 + -32020) and `origin-rejected` (a foreign `Origin` gets 403). The probes are
 * chosen to be harmless if the server wrongly accepts them: the mismatched `tools/call` names a
 * tool that does not exist, so nothing runs.
 */
import { ErrorCode, MCP_METHOD_HEADER, MCP_NAME_HEADER } from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import { describeExchange, errorOf, initializeRequest, type RawExchange } from '../raw/channel';
import { SPEC, type SpecRef } from '../spec-refs';
import { advertisedLists } from '../survey';
import { type CheckDefinition, Findings, notConnected, notHttp, notModern, skip } from './define';

/** An origin no server should trust: `.invalid` never resolves (RFC 2606). */
export const FOREIGN_ORIGIN = 'https://twofold-doctor.invalid';

const NO_SUCH_NAME = 'twofold-doctor-no-such-name';
const OTHER_NAME = 'twofold-doctor-other-name';

/** The method (and body) whose `Mcp-Name` a probe can contradict, by what the server offers. */
async function namedProbe(
  context: DoctorContext,
): Promise<{ method: string; params: Record<string, unknown> } | undefined> {
  const lists = await advertisedLists(context);
  if (lists.includes('tools/list'))
    return { method: 'tools/call', params: { name: NO_SUCH_NAME, arguments: {} } };
  if (lists.includes('prompts/list'))
    return { method: 'prompts/get', params: { name: NO_SUCH_NAME } };
  if (lists.includes('resources/list')) {
    return { method: 'resources/read', params: { uri: `twofold-doctor:${NO_SUCH_NAME}` } };
  }
  return undefined;
}

function judgeMismatch(findings: Findings, sent: string, exchange: RawExchange): void {
  const error = errorOf(exchange);
  const status = exchange.http?.status;
  const answered = describeExchange(exchange);
  if (error?.code === ErrorCode.HeaderMismatch && status === 400) {
    findings.note(`${sent} → HTTP 400, -32020, as required`);
  } else if (error?.code === ErrorCode.HeaderMismatch) {
    findings.fail(`${sent} → ${answered}: -32020 is right, but the status MUST be 400`);
  } else {
    findings.fail(
      `${sent} → ${answered}: a header that disagrees with the body MUST be rejected with 400 and -32020`,
    );
  }
}

export const headerMismatch: CheckDefinition = {
  id: 'header-mismatch',
  title: 'Header/body mismatch rejected (-32020)',
  spec: SPEC.serverValidation,
  async run(context) {
    const notApplicable = notHttp(context) ?? notModern(context);
    if (notApplicable) return notApplicable;
    const findings = new Findings();
    const methodProbe = await context.modernCall(
      'server/discover',
      {},
      {
        headers: { [MCP_METHOD_HEADER]: 'tools/list' },
      },
    );
    judgeMismatch(findings, 'server/discover sent with Mcp-Method: tools/list', methodProbe);
    const named = await namedProbe(context);
    if (!named) {
      findings.note('Mcp-Name not probed: the server offers no tools, prompts or resources');
      return findings.outcome();
    }
    const nameProbe = await context.modernCall(named.method, named.params, {
      headers: { [MCP_NAME_HEADER]: OTHER_NAME },
    });
    judgeMismatch(
      findings,
      `${named.method} for ${JSON.stringify(NO_SUCH_NAME)} sent with Mcp-Name: ${OTHER_NAME}`,
      nameProbe,
    );
    return findings.outcome();
  },
};

export const originRejected: CheckDefinition = {
  id: 'origin-rejected',
  title: 'Foreign Origin rejected (403)',
  spec: SPEC.originCheck,
  async run(context) {
    const notApplicable = notHttp(context);
    if (notApplicable) return notApplicable;
    const client = context.client;
    if (!client) return notConnected(context);
    const findings = new Findings();
    const headers = { origin: FOREIGN_ORIGIN };
    let exchange: RawExchange;
    let sent: string;
    let spec: SpecRef = SPEC.originCheck;
    if (context.era === 'modern') {
      sent = `server/discover with Origin: ${FOREIGN_ORIGIN}`;
      exchange = await context.modernCall('server/discover', {}, { headers });
    } else {
      if (client.verdict.transport === 'http+sse') {
        return skip('not probed on the 2024-11-05 HTTP+SSE transport');
      }
      spec = SPEC.legacyOriginCheck;
      sent = `initialize with Origin: ${FOREIGN_ORIGIN}`;
      const channel = await context.openChannel('legacy');
      exchange = await channel.send(initializeRequest(client.protocolVersion, context.clientInfo), {
        timeoutMs: context.timeoutMs,
        headers,
      });
      // A session the server wrongly opened is ended at once.
      await channel.close();
    }
    const status = exchange.http?.status;
    if (status === 403) findings.note(`${sent} → HTTP 403, as required`);
    else if (status === 401) {
      findings.warn(
        `${sent} → HTTP 401: authorization ran first, so the Origin check was not observed`,
      );
    } else {
      findings.fail(
        `${sent} → ${describeExchange(exchange)}: servers MUST answer a present, invalid Origin with 403 (DNS rebinding protection)`,
      );
    }
    return findings.outcome(spec);
  },
};
