/**
 * The doctor against twofold's own everything server, over in-process HTTP and over stdio: it
 * must run clean (no `fail`), and the probes that apply must really have been answered.
 */
import { describe, expect, it } from 'vitest';
import { doctorExitCode, formatDoctorReport } from '../../src/doctor/format';
import { runDoctor } from '../../src/doctor/run';
import type { CheckResult } from '../../src/doctor/types';
import { CHECK_IDS, checkOf, detailsOf, expectWellFormed, idsWith } from './support/report-checks';
import { twofoldEverythingHttp, twofoldEverythingStdio } from './support/targets';

const TIMEOUT = 30_000;

describe('twofold everything server', () => {
  it('over HTTP: every check passes, the HTTP probes included', { timeout: TIMEOUT }, async () => {
    const endpoint = await twofoldEverythingHttp();
    const seen: CheckResult[] = [];
    try {
      const report = await runDoctor(endpoint.target, { onCheck: (check) => seen.push(check) });
      expectWellFormed(report);
      expect(idsWith(report, 'fail'), formatDoctorReport(report, { color: false })).toEqual([]);
      expect(idsWith(report, 'pass')).toEqual(CHECK_IDS);
      expect(doctorExitCode(report)).toBe(0);
      // onCheck saw every check as it finished, in run order.
      expect(seen).toEqual(report.checks);

      expect(report.era).toBe('modern');
      expect(report.protocolVersion).toBe('2026-07-28');
      expect(report.serverInfo?.name).toBe('twofold-everything-server');
      expect(report.supportedVersions).toEqual([
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2024-11-05',
      ]);
      expect(detailsOf(report, 'header-mismatch')).toMatch(
        /Mcp-Method: tools\/list → HTTP 400, -32020/,
      );
      expect(detailsOf(report, 'header-mismatch')).toMatch(/Mcp-Name: .* → HTTP 400, -32020/);
      expect(detailsOf(report, 'origin-rejected')).toContain('HTTP 403');
      expect(detailsOf(report, 'unsupported-version')).toContain('HTTP 400');
      expect(detailsOf(report, 'notifications-unanswered')).toContain(
        'modern notifications/cancelled POST → HTTP 202',
      );
      expect(detailsOf(report, 'notifications-unanswered')).toContain(
        'legacy notifications/initialized POST → HTTP 202',
      );
      expect(detailsOf(report, 'legacy-initialize')).toContain(
        'echoed when offered: 2025-11-25, 2025-06-18, 2024-11-05',
      );
      // 2025-03-26 is deliberately not offered: the newest legacy revision answers it.
      expect(detailsOf(report, 'legacy-initialize')).toContain(
        'initialize 2025-03-26 → 2025-11-25',
      );
      expect(detailsOf(report, 'tool-header-annotations')).toContain(
        'test_header_param (Mcp-Param-Region)',
      );
      expect(detailsOf(report, 'skills-extension')).toContain(
        '4 file(s) read back with the listed digest and size',
      );
      expect(checkOf(report, 'tasks-extension').status).toBe('pass');
      expect(detailsOf(report, 'tasks-extension')).toContain(
        'tasks/get of an unknown task → -32602',
      );
    } finally {
      await endpoint.close();
    }
  });

  it('skips what is left once the run is out of time', { timeout: TIMEOUT }, async () => {
    const endpoint = await twofoldEverythingHttp();
    try {
      const report = await runDoctor(endpoint.target, { maxDurationMs: 0 });
      expectWellFormed(report);
      expect(idsWith(report, 'skip')).toEqual(CHECK_IDS);
      expect(checkOf(report, 'pagination').details).toEqual([
        'not run: the doctor ran out of its time budget',
      ]);
      // The connection itself was made: the report still says what the server is.
      expect(report.era).toBe('modern');
    } finally {
      await endpoint.close();
    }
  });

  // Over stdio the doctor starts the server (tsx compiling TypeScript) about ten times: on a busy
  // machine that alone outlasts 30 s. The run bounds itself (120 s); this only bounds a hang.
  it('over stdio: no check fails; HTTP-only checks skip with the reason', {
    timeout: 150_000,
  }, async () => {
    const report = await runDoctor(twofoldEverythingStdio());
    expectWellFormed(report);
    expect(idsWith(report, 'fail'), formatDoctorReport(report, { color: false })).toEqual([]);
    expect(idsWith(report, 'skip')).toEqual(['header-mismatch', 'origin-rejected']);
    expect(checkOf(report, 'header-mismatch').details).toEqual([
      'applies to Streamable HTTP servers; this one runs on stdio',
    ]);
    expect(report.era).toBe('modern');
    expect(detailsOf(report, 'era-detection')).toContain(
      'concluded modern, protocol 2026-07-28, transport stream',
    );
    expect(detailsOf(report, 'unsupported-version')).toContain('-32022');
    expect(detailsOf(report, 'notifications-unanswered')).toContain(
      'modern notifications/cancelled: no response came back',
    );
    expect(detailsOf(report, 'notifications-unanswered')).toContain(
      'legacy notifications/initialized, notifications/cancelled: no response came back',
    );
  });
});
