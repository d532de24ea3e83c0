/** `unsupported-version`: a version no server offers gets -32022 naming the supported ones. */
import { ErrorCode, isRecord } from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import { describeExchange, errorOf, modernRequest } from '../raw/channel';
import { SPEC } from '../spec-refs';
import { listOf } from '../util';
import { type CheckDefinition, Findings, notModern } from './define';

/** A well-formed version that names no revision. */
export const UNKNOWN_VERSION = '1900-01-01';

export const unsupportedVersion: CheckDefinition = {
  id: 'unsupported-version',
  title: 'Unsupported version rejected (-32022)',
  spec: SPEC.versionNegotiation,
  async run(context) {
    const notApplicable = notModern(context);
    if (notApplicable) return notApplicable;
    const findings = new Findings();
    const exchange = await context.modernCall('server/discover', {}, { version: UNKNOWN_VERSION });
    const sent = `server/discover at protocol ${UNKNOWN_VERSION}`;
    const error = errorOf(exchange);
    if (error?.code !== ErrorCode.UnsupportedProtocolVersion) {
      findings.fail(
        `${sent} → ${describeExchange(exchange)}; an unsupported version MUST get -32022`,
      );
      if (context.target.kind === 'stdio') await retryOnFreshProcess(context, findings);
      return findings.outcome();
    }
    findings.note(`${sent} → -32022`);
    const data = isRecord(error.data) ? error.data : {};
    const supported = Array.isArray(data.supported) ? data.supported : undefined;
    if (!supported || supported.some((v) => typeof v !== 'string')) {
      findings.fail(
        `data.supported MUST be an array of strings; got ${JSON.stringify(data.supported)}`,
      );
    } else {
      findings.note(`data.supported: ${listOf(supported as string[], 10)}`);
      const discover = await context.discover();
      const listed =
        discover.ok && Array.isArray(discover.result.supportedVersions)
          ? (discover.result.supportedVersions as unknown[])
          : undefined;
      if (listed && [...listed].sort().join() !== [...supported].sort().join()) {
        findings.warn(
          `data.supported differs from discover's supportedVersions (${listOf(listed.map(String))})`,
        );
      }
    }
    findings.expect(
      data.requested === UNKNOWN_VERSION,
      data.requested === UNKNOWN_VERSION
        ? 'data.requested names the version sent'
        : `data.requested MUST be ${JSON.stringify(UNKNOWN_VERSION)}; got ${JSON.stringify(data.requested)}`,
    );
    const status = exchange.http?.status;
    if (status !== undefined) {
      findings.expect(status === 400, `HTTP ${status}${status === 400 ? '' : ' (MUST be 400)'}`);
    }
    return findings.outcome();
  },
};

/**
 * On stdio the probe went to a process that had served other requests. Asking a fresh process
 * tells a server that never checks the version from one whose answer depends on what the
 * connection carried before (which statelessness forbids).
 */
async function retryOnFreshProcess(context: DoctorContext, findings: Findings): Promise<void> {
  const channel = await context.openChannel('modern');
  try {
    const message = modernRequest('server/discover', {}, UNKNOWN_VERSION, context.clientInfo);
    const fresh = await channel.send(message, { timeoutMs: context.timeoutMs });
    if (errorOf(fresh)?.code === ErrorCode.UnsupportedProtocolVersion) {
      findings.fail(
        'a fresh server process answers the same request with -32022: the answer depends on the requests the process served before, but each request MUST be judged on its own (statelessness)',
      );
    } else {
      findings.note(`a fresh server process answers the same: ${describeExchange(fresh)}`);
    }
  } finally {
    await channel.close();
  }
}
