/**
 * The run's document: Markdown (printed, and written to results/<date>.md) and the same as
 * JSON. Side-by-side sections are structured; the component sections are their Markdown.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ProcessWarning } from './driver-process';
import { BENCH_DIR } from './impls';
import { formatTables } from './markdown-tables';
import { renderSection, type Section } from './report';
import { renderTargets, type TargetResult } from './targets';

/** A component section: a title and its ready Markdown (or why it failed). */
export interface MarkdownSection {
  id: string;
  title: string;
  markdown: string;
}

/** Everything one run produced. */
export interface RunReport {
  meta: {
    date: string;
    mode: 'quick' | 'full';
    /** The parts run (`--only`), when not all of them. */
    parts?: string[] | undefined;
    node: string;
    platform: string;
    cpu: string;
    cpus: number;
    seconds: number;
    notes: string[];
  };
  targets: TargetResult[];
  sections: Section[];
  components: MarkdownSection[];
  /** Warnings the client libraries raised in their driver processes. */
  warnings: ProcessWarning[];
  /** Sections that threw, by id. */
  errors: Record<string, string>;
}

/** The run's environment, filled in at the start. */
export function runMeta(quick: boolean, parts?: string[]): RunReport['meta'] {
  return {
    date: new Date().toISOString().slice(0, 10),
    mode: quick ? 'quick' : 'full',
    parts,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cpus: cpus().length,
    seconds: 0,
    notes: [],
  };
}

/** The whole document as Markdown. */
export function renderReport(report: RunReport): string {
  const { meta } = report;
  const parts = [
    `# twofold benchmarks, ${meta.date} (${meta.mode} run${meta.parts ? `, only ${meta.parts.join(', ')}` : ''})`,
    '',
    `Node ${meta.node}, ${meta.platform}, ${meta.cpus} × ${meta.cpu}; ${meta.seconds.toFixed(0)} s in all.${meta.mode === 'quick' ? ' **Quick run**: fewer and shorter samples than `pnpm bench`; expect wider min–max.' : ''}`,
    ...meta.notes.map((n) => `\n${n}`),
    '',
    'Every figure is a median over alternating turns (implementations take turns, and the order reverses each round, so machine drift falls on all alike), with min–max beside it. Ratio columns are implementation ÷ twofold; each table says whether higher or lower is better. See README.md for how each figure is measured.',
    '',
    renderTargets(report.targets),
    '',
    '## Side by side: twofold, the official SDKs and the floor',
    '',
    ...report.sections.flatMap((s) => [renderSection(s), '']),
    ...(report.warnings.length > 0
      ? [
          '### Warnings raised by the libraries under test',
          '',
          'Process warnings emitted in the client driver processes (digits masked), counted over the run:',
          '',
          ...report.warnings.map((w) => `- ${w.process}: ${w.warning} (${w.count}×)`),
          '',
        ]
      : []),
    '## Component benchmarks',
    '',
    ...report.components.flatMap((c) => [`### ${c.title}`, '', c.markdown, '']),
  ];
  const errors = Object.entries(report.errors);
  if (errors.length > 0) {
    parts.push('## Sections that failed', '', ...errors.map(([id, e]) => `- ${id}: ${e}`), '');
  }
  return formatTables(parts.join('\n'));
}

const REPO_ROOT = resolve(BENCH_DIR, '..', '..');

/** Replaces this machine's checkout path (in error messages) with `<repo>`. */
export function withoutLocalPaths(text: string): string {
  return text.split(REPO_ROOT).join('<repo>');
}

/** Writes results/<date>.md when `results`, and the JSON to `json`; returns the paths written. */
export function writeReport(
  report: RunReport,
  markdown: string,
  to: { results: boolean; json?: string },
): string[] {
  const written: string[] = [];
  if (to.results) {
    const path = join(BENCH_DIR, 'results', `${report.meta.date}.md`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, withoutLocalPaths(markdown));
    written.push(path);
  }
  if (to.json) {
    mkdirSync(dirname(to.json), { recursive: true });
    writeFileSync(to.json, `${withoutLocalPaths(JSON.stringify(report, null, 2))}\n`);
    written.push(to.json);
  }
  return written;
}
