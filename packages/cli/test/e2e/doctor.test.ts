/**
 * `twofold doctor` through the built binary: clean against twofold's everything server over
 * HTTP (exit 0, `--json` parsed), and a report with real findings — not a crash — against
 * `@modelcontextprotocol/server-everything`.
 */
import { describe, expect, it } from 'vitest';
import { everythingHttp, jsonOf, referenceStdio, twofold } from './support';

interface Report {
  era: string;
  checks: { id: string; status: string; spec: string; specUrl: string; details: string[] }[];
  summary: { pass: number; warn: number; fail: number; skip: number };
}

describe('twofold doctor', { timeout: 90_000 }, () => {
  it("twofold's everything server over HTTP: every check passes", async () => {
    const run = await twofold(['doctor', '--json', '--url', await everythingHttp()]);
    expect(run.code).toBe(0);
    const report = jsonOf<Report>(run);
    expect(report.era).toBe('modern');
    expect(report.summary).toEqual({ pass: report.checks.length, warn: 0, fail: 0, skip: 0 });
    expect(report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'era-detection',
        'header-mismatch',
        'origin-rejected',
        'unsupported-version',
        'legacy-initialize',
      ]),
    );
    for (const check of report.checks)
      expect(check.specUrl).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\//);
  });

  it('server-everything: a report with findings, modern-only checks skipped with a reason', async () => {
    const run = await twofold(['doctor', '--', ...referenceStdio()]);
    expect([0, 1]).toContain(run.code);
    expect(run.stdout).toContain('era legacy');
    expect(run.stdout).toMatch(/SKIP\s+discover-shape/);
    expect(run.stdout).toContain('applies to modern (2026-07-28) servers');
    expect(run.stdout).toMatch(/\d+ checks: \d+ pass, \d+ warn, \d+ fail, \d+ skip/);
    expect(run.stderr).not.toContain('twofold:');
  });
});
