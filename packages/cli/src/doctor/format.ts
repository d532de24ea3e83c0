/**
 * The report for people: a header, one aligned line per check (status, id, title) with its
 * findings and spec page indented below, and a summary line. And the pure helpers the CLI
 * needs around it: the summary counts and the exit code.
 */
import type { CheckResult, CheckStatus, DoctorReport, DoctorSummary } from './types';

/**
 * Options of {@link formatDoctorReport}.
 *
 * @experimental
 */
export interface FormatOptions {
  /** ANSI colours (the CLI decides, e.g. from `isTTY` and `NO_COLOR`). */
  color: boolean;
}

const LABEL: Record<CheckStatus, string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  skip: 'SKIP',
};
const COLOR: Record<CheckStatus, string> = { pass: '32', warn: '33', fail: '31', skip: '90' };
const DIM = '2';
const BOLD = '1';

function paint(enabled: boolean, code: string, text: string): string {
  return enabled ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/**
 * Counts the checks by status.
 *
 * @experimental
 */
export function summarizeChecks(checks: readonly CheckResult[]): DoctorSummary {
  const summary: DoctorSummary = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const check of checks) summary[check.status] += 1;
  return summary;
}

/**
 * The exit code the report calls for: 0 when no check failed, 1 otherwise. Warnings and skips
 * do not fail a run; the CLI may apply a stricter policy on top.
 *
 * @experimental
 */
export function doctorExitCode(report: DoctorReport): 0 | 1 {
  return report.checks.some((check) => check.status === 'fail') ? 1 : 0;
}

/**
 * The report as aligned text for a terminal, ending with a newline: a header, one line per check
 * (status, id padded to the longest id, title), its details indented below it and then its spec
 * page, and a summary line.
 *
 * @experimental
 */
export function formatDoctorReport(report: DoctorReport, options: FormatOptions): string {
  const { color } = options;
  const lines: string[] = [];
  lines.push(`${paint(color, BOLD, 'twofold doctor')} ${oneLine(report.target)}`);
  lines.push(paint(color, DIM, oneLine(headline(report))));
  lines.push('');
  const idWidth = Math.max(0, ...report.checks.map((check) => check.id.length));
  // Details start under the id: status labels are four characters wide.
  const indent = ' '.repeat(2 + 4 + 2);
  for (const check of report.checks) {
    const label = paint(color, COLOR[check.status], LABEL[check.status]);
    lines.push(`  ${label}  ${check.id.padEnd(idWidth)}  ${check.title}`);
    for (const detail of check.details) lines.push(`${indent}${oneLine(detail)}`);
    lines.push(paint(color, DIM, `${indent}spec: ${check.specUrl}`));
  }
  lines.push('');
  lines.push(summaryLine(report.summary, color));
  return `${lines.join('\n')}\n`;
}

function headline(report: DoctorReport): string {
  const parts = [`era ${report.era}`];
  if (report.protocolVersion) parts.push(`protocol ${report.protocolVersion}`);
  if (report.serverInfo) {
    parts.push(`server ${report.serverInfo.name} ${report.serverInfo.version}`);
  }
  if (report.supportedVersions.length > 0) {
    parts.push(`supports ${report.supportedVersions.join(', ')}`);
  }
  return parts.join(' · ');
}

// Details can quote the server: control characters (escape sequences included) must not reach
// the terminal, and each detail stays on its line.
function oneLine(detail: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  return detail.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
}

function summaryLine(summary: DoctorSummary, color: boolean): string {
  const total = summary.pass + summary.warn + summary.fail + summary.skip;
  const part = (status: CheckStatus) => {
    const text = `${summary[status]} ${status}`;
    return summary[status] > 0 ? paint(color, COLOR[status], text) : text;
  };
  return `${total} checks: ${part('pass')}, ${part('warn')}, ${part('fail')}, ${part('skip')}`;
}
