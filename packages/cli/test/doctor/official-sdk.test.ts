/**
 * The doctor against servers built with the official SDK 2.4.0 (`@modelcontextprotocol/server`),
 * which speaks 2026-07-28 and the legacy revisions. Each finding asserted here was checked by
 * hand against the wire.
 */
import { describe, expect, it } from 'vitest';
import { doctorExitCode } from '../../src/doctor/format';
import { runDoctor } from '../../src/doctor/run';
import { checkOf, detailsOf, expectWellFormed, idsWith } from './support/report-checks';
import { officialHttp } from './support/sdk-http';
import { fixtureStdio } from './support/targets';

const TIMEOUT = 30_000;

describe('official SDK 2.4.0', () => {
  it('over HTTP (createMcpHandler): modern and legacy work, a foreign Origin is accepted', {
    timeout: TIMEOUT,
  }, async () => {
    const endpoint = await officialHttp();
    try {
      const report = await runDoctor(endpoint.target);
      expectWellFormed(report);
      expect(report.era).toBe('modern');
      expect(report.supportedVersions).toEqual(['2026-07-28']);
      // The handler validates the mirrored headers and the version as the spec asks.
      expect(checkOf(report, 'header-mismatch').status).toBe('pass');
      expect(checkOf(report, 'unsupported-version').status).toBe('pass');
      expect(checkOf(report, 'cache-hints').status).toBe('pass');
      // Real finding: no Origin validation by default (the spec's MUST is the server's).
      expect(checkOf(report, 'origin-rejected').status).toBe('fail');
      expect(detailsOf(report, 'origin-rejected')).toContain('→ HTTP 200, a result');
      // It serves legacy initialize statelessly, though discover lists only 2026-07-28.
      expect(checkOf(report, 'legacy-initialize').status).toBe('pass');
      expect(detailsOf(report, 'legacy-initialize')).toContain(
        'supportedVersions lists no legacy version',
      );
      expect(idsWith(report, 'fail')).toEqual(['origin-rejected']);
      expect(doctorExitCode(report)).toBe(1);
    } finally {
      await endpoint.close();
    }
  });

  it('over stdio (serveStdio): the version check depends on what the process served before', {
    timeout: TIMEOUT,
  }, async () => {
    const report = await runDoctor(fixtureStdio('official-stdio.mjs'));
    expectWellFormed(report);
    expect(report.era).toBe('modern');
    expect(checkOf(report, 'discover-shape').status).toBe('pass');
    expect(checkOf(report, 'result-type').status).toBe('pass');
    // Real finding: once the process has served a list request, a request at an unknown version
    // is answered as if it were valid; a fresh process answers the same request with -32022.
    const unsupported = checkOf(report, 'unsupported-version');
    expect(unsupported.status).toBe('fail');
    expect(unsupported.details[0]).toMatch(/at protocol 1900-01-01 → a result/);
    expect(unsupported.details.join('\n')).toContain(
      'a fresh server process answers the same request with -32022',
    );
    expect(idsWith(report, 'skip')).toEqual([
      'header-mismatch',
      'origin-rejected',
      'skills-extension',
      'tasks-extension',
    ]);
  });

  it('over stdio, hand-wired legacy: modern-only checks skip with a reason', {
    timeout: TIMEOUT,
  }, async () => {
    const report = await runDoctor(fixtureStdio('official-stdio.mjs', ['--legacy']));
    expectWellFormed(report);
    expect(report.era).toBe('legacy');
    expect(detailsOf(report, 'era-detection')).toContain('error -32601');
    expect(checkOf(report, 'discover-shape').details[0]).toMatch(
      /^applies to modern \(2026-07-28\) servers/,
    );
    expect(checkOf(report, 'legacy-initialize').status).toBe('pass');
    expect(idsWith(report, 'fail')).toEqual([]);
  });
});
