/**
 * `legacy-initialize`: version selection in the legacy handshake. Each offer gets a session of
 * its own (a new process on stdio, a new session on HTTP), run side by side:
 *
 * - every legacy revision (2025-03-26 too: twofold does not offer it, but a server may), where a
 *   server MUST echo a version it supports and otherwise answer another one it supports;
 * - a future version no server can know, which MUST be answered with a supported version
 *   (SHOULD be the newest).
 *
 * "Supported" is read from the server's own behaviour: the versions it echoes. On a dual-era
 * server the legacy versions its `supportedVersions` lists must be among them. A modern server
 * that lists none gets one `initialize`: it either serves it (and the full check runs) or must
 * name its versions in the error (SHOULD, 2026-07-28 versioning).
 */
import { isRecord, LATEST_LEGACY_VERSION, LEGACY_VERSIONS } from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import { describeExchange, errorOf, initializeRequest, resultOf } from '../raw/channel';
import { SPEC } from '../spec-refs';
import { listOf, messageOf } from '../util';
import { type CheckDefinition, type CheckOutcome, Findings, notConnected, skip } from './define';

/** A well-formed version from the future: no server can support it. */
export const FUTURE_VERSION = '2999-12-31';

/** Every legacy revision, newest first. */
export const LEGACY_OFFERS = [
  ...LEGACY_VERSIONS.slice(0, 2),
  '2025-03-26',
  ...LEGACY_VERSIONS.slice(2),
];

type Answer = { version: string } | { error: string; supported?: string[] };

/**
 * The legacy versions the server promises (a modern server's `supportedVersions`), `[]` for a
 * legacy server, or the outcome when legacy does not apply.
 */
async function applicability(context: DoctorContext): Promise<string[] | CheckOutcome> {
  const client = context.client;
  if (!client) return notConnected(context);
  if (context.era === 'legacy') {
    return client.verdict.transport === 'http+sse'
      ? skip('not probed on the 2024-11-05 HTTP+SSE transport')
      : [];
  }
  const discover = await context.discover();
  const supported =
    discover.ok && Array.isArray(discover.result.supportedVersions)
      ? discover.result.supportedVersions.filter((v): v is string => typeof v === 'string')
      : [];
  const listed = supported.filter((v) => LEGACY_OFFERS.includes(v));
  return listed.length > 0 ? listed : probeModernOnly(context, supported);
}

/**
 * A modern server that lists no legacy version: one `initialize` shows whether it serves legacy
 * clients anyway (then the full check runs) or, as a modern-only server SHOULD, names the
 * versions it supports in its error.
 */
async function probeModernOnly(
  context: DoctorContext,
  supported: string[],
): Promise<string[] | CheckOutcome> {
  const answer = await offer(context, LATEST_LEGACY_VERSION);
  if ('version' in answer) return [];
  const findings = new Findings().note(
    `supportedVersions lists no legacy version; initialize ${LATEST_LEGACY_VERSION} → ${answer.error}`,
  );
  const named = answer.supported ?? supported.filter((v) => answer.error.includes(v));
  findings.expect(
    named.length > 0,
    named.length > 0
      ? `the error names the supported version(s) ${listOf(named)}, as a modern-only server SHOULD`
      : 'the error does not name the supported versions (a modern-only server SHOULD, so legacy clients can tell their users)',
    'warn',
  );
  return findings.outcome(SPEC.modernOnlyInitialize);
}

async function offer(context: DoctorContext, version: string): Promise<Answer> {
  try {
    const channel = await context.openChannel('legacy');
    try {
      const exchange = await channel.send(initializeRequest(version, context.clientInfo), {
        timeoutMs: context.timeoutMs,
      });
      const result = resultOf(exchange);
      const chosen = isRecord(result) ? result.protocolVersion : undefined;
      if (typeof chosen === 'string') return { version: chosen };
      if (result) return { error: 'a result without protocolVersion' };
      const data = errorOf(exchange)?.data;
      const supported =
        isRecord(data) && Array.isArray(data.supported) ? data.supported : undefined;
      return supported
        ? { error: describeExchange(exchange), supported: supported.map(String) }
        : { error: describeExchange(exchange) };
    } finally {
      await channel.close();
    }
  } catch (error) {
    return { error: messageOf(error) };
  }
}

export const legacyInitialize: CheckDefinition = {
  id: 'legacy-initialize',
  title: 'Legacy initialize version selection',
  spec: SPEC.legacyVersionNegotiation,
  async run(context) {
    const listed = await applicability(context);
    if (!Array.isArray(listed)) return listed;
    const unlisted = context.era === 'modern' && listed.length === 0;
    const offers = [...LEGACY_OFFERS, FUTURE_VERSION];
    const answers = await Promise.all(offers.map((version) => offer(context, version)));
    const byOffer = new Map(offers.map((version, i) => [version, answers[i] as Answer]));
    const accepted = LEGACY_OFFERS.filter((v) => {
      const answer = byOffer.get(v);
      return answer !== undefined && 'version' in answer && answer.version === v;
    });
    context.legacyAccepted = accepted;
    const findings = new Findings();
    if (accepted.length === 0) {
      findings.fail('the server echoed none of the legacy versions it was offered');
    } else {
      findings.note(`echoed when offered: ${listOf(accepted)}`);
    }
    for (const version of LEGACY_OFFERS)
      judgeKnown(findings, version, byOffer.get(version), accepted, listed);
    judgeFuture(findings, byOffer.get(FUTURE_VERSION), accepted);
    if (unlisted) {
      findings.note(
        'the server serves legacy initialize, though its supportedVersions lists no legacy version',
      );
    }
    return findings.outcome();
  },
};

function judgeKnown(
  findings: Findings,
  version: string,
  answer: Answer | undefined,
  accepted: string[],
  listed: string[],
): void {
  const promised = listed.includes(version);
  if (!answer || 'error' in answer) {
    const what = `initialize ${version} → ${answer ? answer.error : 'nothing'}`;
    if (promised) findings.fail(`${what}, though supportedVersions lists ${version}`);
    else findings.warn(`${what}; a server MUST answer with a version it supports rather than fail`);
    return;
  }
  if (answer.version === version) return;
  const what = `initialize ${version} → ${answer.version}`;
  if (promised)
    findings.fail(`${what}, though supportedVersions lists ${version} (it MUST be echoed)`);
  else if (!accepted.includes(answer.version)) {
    findings.fail(
      `${what}, a version the server does not echo when offered (the answer MUST be one it supports)`,
    );
  } else findings.note(`${what} (not supported; answered with a supported one)`);
}

function judgeFuture(findings: Findings, answer: Answer | undefined, accepted: string[]): void {
  const what = `initialize ${FUTURE_VERSION} (a future version)`;
  if (!answer || 'error' in answer) {
    findings.warn(
      `${what} → ${answer ? answer.error : 'nothing'}; the server MUST answer with a version it supports (the spec's example error is tolerated)`,
    );
    return;
  }
  if (answer.version === FUTURE_VERSION) {
    findings.fail(`${what} → echoed; a server cannot support a version that does not exist yet`);
  } else if (!accepted.includes(answer.version)) {
    findings.fail(`${what} → ${answer.version}, which the server does not echo when offered`);
  } else if (answer.version !== accepted[0]) {
    findings.warn(
      `${what} → ${answer.version}; it SHOULD be the newest it supports (${accepted[0]})`,
    );
  } else {
    findings.note(`${what} → ${answer.version}, its newest`);
  }
}
