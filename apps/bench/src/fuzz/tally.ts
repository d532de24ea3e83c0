/**
 * Counting what the fuzz saw: per frame kind, how many frames got what they should, and each
 * way one did not (missing, duplicate, wrong). The first few defects are kept with the frame
 * that caused them, so a report says exactly what to replay.
 */
import { cellText } from '../markdown-tables';
import type { Expect } from './frames';

export type Verdict = 'ok' | 'missing' | 'duplicate' | 'wrong';

/** One frame that did not get what it should. */
export interface Defect {
  transport: string;
  kind: string;
  frame: string;
  expected: Expect;
  actual: string;
  verdict: Exclude<Verdict, 'ok'>;
}

const KEPT_DEFECTS = 12;

export class Tally {
  private readonly byKind = new Map<string, Record<Verdict, number>>();
  readonly defects: Defect[] = [];
  /** Defects of all verdicts but `ok`, including those not kept. */
  defectCount = 0;

  constructor(readonly transport: string) {}

  record(kind: string, verdict: Verdict, detail?: Omit<Defect, 'transport' | 'kind' | 'verdict'>) {
    const row = this.byKind.get(kind) ?? { ok: 0, missing: 0, duplicate: 0, wrong: 0 };
    row[verdict]++;
    this.byKind.set(kind, row);
    if (verdict === 'ok') return;
    this.defectCount++;
    if (detail && this.defects.length < KEPT_DEFECTS) {
      this.defects.push({ transport: this.transport, kind, verdict, ...detail });
    }
  }

  /** Totals over every kind. */
  totals(): Record<Verdict, number> & { sent: number } {
    const sum = { ok: 0, missing: 0, duplicate: 0, wrong: 0, sent: 0 };
    for (const row of this.byKind.values()) {
      for (const verdict of ['ok', 'missing', 'duplicate', 'wrong'] as const) {
        sum[verdict] += row[verdict];
        sum.sent += row[verdict];
      }
    }
    return sum;
  }

  /** Markdown rows `| transport | kind | sent | ok | missing | duplicate | wrong |`, by kind. */
  rows(): string[] {
    return [...this.byKind]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, r]) => {
        const sent = r.ok + r.missing + r.duplicate + r.wrong;
        return `| ${this.transport} | ${cellText(kind)} | ${sent} | ${r.ok} | ${r.missing} | ${r.duplicate} | ${r.wrong} |`;
      });
  }
}

export const TALLY_HEADER = [
  '| transport | frame | sent | as expected | missing | duplicate | wrong |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
];

/** The kept defects as a Markdown list. */
export function renderDefects(defects: readonly Defect[]): string[] {
  return defects.map(
    (d) =>
      `- ${d.transport}, ${d.kind} (${d.verdict}): frame ${cellText(d.frame)}; expected ${d.expected}; got ${cellText(d.actual)}`,
  );
}
