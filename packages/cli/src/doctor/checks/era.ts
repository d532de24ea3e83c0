/**
 * `era-detection`: what `McpClient` with `era: 'auto'` concluded, and whether the server answered
 * the doctor's own `server/discover` probe the way DIGEST §4 (stdio §2.1, HTTP §4.2) requires:
 * a modern server answers with a `DiscoverResult` or a -32022 naming its versions (on HTTP: 2xx,
 * or 400 with the error); a legacy server answers with any other error, a 4xx, or silence.
 */
import {
  classifyHttpProbe,
  classifyStdioProbe,
  ErrorCode,
  type ProbeVerdict,
} from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import { describeExchange, type RawExchange } from '../raw/channel';
import { SPEC } from '../spec-refs';
import { listOf } from '../util';
import { type CheckDefinition, Findings } from './define';

export const eraDetection: CheckDefinition = {
  id: 'era-detection',
  title: 'Era detection',
  spec: SPEC.stdioBackwardCompatibility,
  async run(context) {
    const spec =
      context.target.kind === 'http'
        ? SPEC.httpBackwardCompatibility
        : SPEC.stdioBackwardCompatibility;
    const findings = new Findings();
    const { client, probe } = context;
    if (client) {
      const verdict = client.verdict;
      findings.note(
        `McpClient (era: auto) concluded ${verdict.era}, protocol ${verdict.protocolVersion}, transport ${verdict.transport}`,
      );
    } else {
      findings.fail(
        `McpClient (era: auto) could not connect: ${context.connectError ?? 'unknown error'}`,
      );
    }
    if (probe.failure) {
      findings.fail(`the doctor's own probe could not be sent: ${probe.failure}`);
      return findings.outcome(spec);
    }
    const verdict = classifyProbe(context, probe.exchange);
    findings.note(
      `server/discover probe at ${probe.version} → ${describeExchange(probe.exchange)}; a dual-era client reads that as ${readVerdict(verdict)}`,
    );
    judgeProbe(context, probe.exchange, verdict, findings);
    const noise = probe.channel?.noise?.() ?? [];
    if (noise.length > 0) {
      findings.fail(
        `stdout carried ${noise.length} line(s) that are not JSON-RPC messages (only MCP messages may be written there): ${listOf(noise, 3)}`,
      );
    }
    return findings.outcome(spec);
  },
};

function classifyProbe(context: DoctorContext, exchange: RawExchange): ProbeVerdict {
  const options = { requested: context.probe.version };
  const response = exchange.response;
  if (context.target.kind === 'http') {
    if (!exchange.http)
      return classifyHttpProbe({ type: 'network-error', message: exchange.failure ?? '' }, options);
    return classifyHttpProbe(
      { type: 'response', status: exchange.http.status, body: response },
      options,
    );
  }
  if (response && 'result' in response) {
    return classifyStdioProbe({ type: 'result', result: response.result }, options);
  }
  if (response) return classifyStdioProbe({ type: 'error', error: response.error }, options);
  return classifyStdioProbe({ type: exchange.closed ? 'closed' : 'timeout' }, options);
}

function readVerdict(verdict: ProbeVerdict): string {
  switch (verdict.verdict) {
    case 'modern':
      return 'modern';
    case 'retry':
      return `modern (retry with ${verdict.version})`;
    case 'legacy':
      return 'legacy (fall back to initialize)';
    case 'error':
      return `a failure (${verdict.reason})`;
  }
}

/** Whether the probe's answer fits the era the client settled on, as the spec describes it. */
function judgeProbe(
  context: DoctorContext,
  exchange: RawExchange,
  verdict: ProbeVerdict,
  findings: Findings,
): void {
  const era = context.client?.era;
  const probeEra = verdict.verdict === 'retry' ? 'modern' : verdict.verdict;
  const response = exchange.response;
  if (era === 'modern') {
    if (probeEra !== 'modern') {
      findings.fail(
        'the client reached the server as modern, yet the probe answer would send a dual-era client to the legacy handshake (a modern server answers server/discover with a DiscoverResult, or -32022)',
      );
      return;
    }
    const status = exchange.http?.status;
    if (status !== undefined && response && 'error' in response) {
      const code = response.error.code;
      findings.expect(
        status === 400 || (status === 404 && code === ErrorCode.MethodNotFound),
        `the modern error came with HTTP ${status} (the spec pairs -32020/-32021/-32022 with 400)`,
      );
    } else if (status !== undefined) {
      findings.expect(status >= 200 && status < 300, `the DiscoverResult came with HTTP ${status}`);
    }
    return;
  }
  if (era === 'legacy') {
    if (probeEra === 'modern') {
      findings.fail(
        'the probe answer marks the server as modern, yet the client ended up in a legacy session',
      );
    } else if (verdict.verdict === 'error') {
      findings.warn(
        `the probe answer is no clean legacy signal (${verdict.reason}); a dual-era client may give up instead of falling back`,
      );
    } else if (!response && context.target.kind === 'stdio') {
      findings.note(
        `the server stayed silent for at least ${context.probeTimeoutMs} ms (and until the doctor's client had connected), which the spec allows of legacy servers (every dual-era client then waits out its probe timeout)`,
      );
    }
  }
}
