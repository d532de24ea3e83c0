/** Assertions every doctor report must pass, whatever the server. */
import { expect } from 'vitest';
import type { CheckResult, DoctorReport } from '../../../src/doctor/types';

/** The check ids of the `--json` contract, in run order (pinned: changing them is a decision). */
export const CHECK_IDS = [
  'era-detection',
  'supported-versions',
  'discover-shape',
  'result-type',
  'cache-hints',
  'list-order',
  'pagination',
  'tool-names',
  'tool-header-annotations',
  'header-mismatch',
  'origin-rejected',
  'unsupported-version',
  'notifications-unanswered',
  'legacy-initialize',
  'skills-extension',
  'tasks-extension',
];

/** The check `id` of `report` (fails the test when it is missing). */
export function checkOf(report: DoctorReport, id: string): CheckResult {
  const check = report.checks.find((c) => c.id === id);
  expect(check, `check ${id}`).toBeDefined();
  return check as CheckResult;
}

/** Every check is there, in order, with a status, a spec page and at least one detail. */
export function expectWellFormed(report: DoctorReport): void {
  expect(report.checks.map((c) => c.id)).toEqual(CHECK_IDS);
  for (const check of report.checks) {
    expect(['pass', 'warn', 'fail', 'skip'], check.id).toContain(check.status);
    expect(check.spec, check.id).toMatch(/^20\d\d-\d\d-\d\d\/[a-z]/);
    expect(check.specUrl, check.id).toBe(
      `https://modelcontextprotocol.io/specification/${check.spec}`,
    );
    expect(check.details.length, `${check.id} details`).toBeGreaterThan(0);
  }
  const count = (status: string) => report.checks.filter((c) => c.status === status).length;
  expect(report.summary).toEqual({
    pass: count('pass'),
    warn: count('warn'),
    fail: count('fail'),
    skip: count('skip'),
  });
  // The --json output is the report itself: it must survive JSON unchanged.
  expect(JSON.parse(JSON.stringify(report))).toEqual(report);
}

/** The ids whose status is `status`. */
export function idsWith(report: DoctorReport, status: CheckResult['status']): string[] {
  return report.checks.filter((c) => c.status === status).map((c) => c.id);
}

/** Every detail of a check as one string, for `toContain` / `toMatch`. */
export function detailsOf(report: DoctorReport, id: string): string {
  return checkOf(report, id).details.join('\n');
}
