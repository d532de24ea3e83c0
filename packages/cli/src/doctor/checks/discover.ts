/**
 * `supported-versions` (what the server offers) and `discover-shape` (the `server/discover`
 * result against the 2026-07-28 `DiscoverResult` schema, using twofold's zod schemas).
 */
import {
  getWire,
  isLegacyVersion,
  isModernVersion,
  isRecord,
  LATEST_LEGACY_VERSION,
  LATEST_VERSION,
  META_KEYS,
  parseResult,
} from '@twofold/protocol/experimental';
import { SPEC } from '../spec-refs';
import { listOf } from '../util';
import { type CheckDefinition, Findings, notConnected, notModern } from './define';

const VERSION_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

export const supportedVersions: CheckDefinition = {
  id: 'supported-versions',
  title: 'Supported versions',
  spec: SPEC.versionNegotiation,
  async run(context) {
    const client = context.client;
    if (!client) return notConnected(context);
    const findings = new Findings();
    if (context.era === 'legacy') {
      const answered = client.protocolVersion;
      findings.note(`initialize offered ${LATEST_LEGACY_VERSION}; the server chose ${answered}`);
      findings.expect(
        isLegacyVersion(answered) || answered === '2025-03-26',
        `${answered} is ${isLegacyVersion(answered) ? 'a legacy revision twofold speaks' : 'not a revision twofold speaks'}`,
        'warn',
      );
      findings.note('legacy-initialize tries every legacy version in turn');
      return findings.outcome(SPEC.legacyVersionNegotiation);
    }
    const discover = await context.discover();
    if (!discover.ok) return findings.fail(discover.reason).outcome();
    const versions = discover.result.supportedVersions as unknown;
    if (!Array.isArray(versions) || versions.length === 0) {
      return findings
        .fail(
          `supportedVersions must be a non-empty array of strings; got ${JSON.stringify(versions)}`,
        )
        .outcome();
    }
    const strings = versions.filter((v): v is string => typeof v === 'string');
    if (strings.length !== versions.length) {
      findings.fail(`supportedVersions holds non-strings: ${JSON.stringify(versions)}`);
    }
    findings.note(`supportedVersions: ${listOf(strings, 10)}`);
    const odd = strings.filter((v) => !VERSION_SHAPE.test(v));
    if (odd.length > 0) findings.warn(`not revision dates (YYYY-MM-DD): ${listOf(odd)}`);
    findings.expect(
      strings.includes(context.modernVersion),
      `${context.modernVersion}, the version the doctor's requests use, ${strings.includes(context.modernVersion) ? 'is listed' : 'is not listed'}`,
    );
    const modern = strings.filter(isModernVersion);
    const legacy = strings.filter((v) => isLegacyVersion(v) || v === '2025-03-26');
    findings.expect(
      modern.length > 0,
      modern.length > 0
        ? `modern versions twofold speaks: ${listOf(modern)}`
        : `none of the listed versions is a modern revision twofold speaks (${LATEST_VERSION})`,
      'warn',
    );
    findings.note(
      legacy.length > 0
        ? `also offers legacy ${listOf(legacy)} (checked by legacy-initialize)`
        : 'lists no legacy version: a modern-only server',
    );
    return findings.outcome();
  },
};

export const discoverShape: CheckDefinition = {
  id: 'discover-shape',
  title: 'server/discover result shape',
  spec: SPEC.discover,
  async run(context) {
    const notApplicable = notModern(context);
    if (notApplicable) return notApplicable;
    const discover = await context.discover();
    const findings = new Findings();
    if (!discover.ok) return findings.fail(discover.reason).outcome();
    const version = isModernVersion(context.modernVersion) ? context.modernVersion : LATEST_VERSION;
    // The raw result, resultType included: a missing one is a finding of its own here.
    const parsed = parseResult(getWire(version), 'server/discover', discover.result);
    if (parsed.ok) {
      findings.note(`the result matches the ${version} DiscoverResult schema`);
    } else {
      const issues = issuesOf(parsed.error.details);
      findings.fail(
        `the result does not match the ${version} DiscoverResult schema: ${listOf(issues, 5)}`,
      );
    }
    const result = discover.result;
    if (result.resultType !== 'complete') {
      findings.fail(`resultType is ${JSON.stringify(result.resultType)}, not "complete"`);
    }
    const meta = isRecord(result._meta) ? result._meta : undefined;
    const info = meta?.[META_KEYS.serverInfo];
    if (isRecord(info) && typeof info.name === 'string' && typeof info.version === 'string') {
      findings.note(`serverInfo: ${info.name} ${info.version}`);
    } else {
      findings.warn(
        `_meta["${META_KEYS.serverInfo}"] is missing or incomplete (servers SHOULD send it)`,
      );
    }
    const capabilities = isRecord(result.capabilities) ? Object.keys(result.capabilities) : [];
    findings.note(`capabilities: ${listOf(capabilities, 10)}`);
    return findings.outcome();
  },
};

function issuesOf(details: unknown): string[] {
  const issues = isRecord(details) && Array.isArray(details.issues) ? details.issues : [];
  return issues.map((issue) =>
    isRecord(issue) ? `${String(issue.path) || '(root)'}: ${String(issue.message)}` : String(issue),
  );
}
