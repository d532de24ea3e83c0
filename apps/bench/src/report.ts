/**
 * The result model of the side-by-side sections and its Markdown rendering: one row per case
 * and implementation, the median with min–max, further figures, and the ratio of each
 * implementation to twofold's row of the same case (implementation ÷ twofold).
 */
import { cellText } from './markdown-tables';
import type { Stat } from './stats';

/** One implementation's figures in one case. */
export interface Row {
  case: string;
  implementation: string;
  /** twofold's row of the case: the denominator of every ratio. */
  baseline?: boolean;
  /** The main figure; absent when the measurement failed. */
  value?: Stat;
  /** Why there is no value (a failure is reported, never hidden). */
  failure?: string;
  /** Why the row was not measured at all (rendered as is, not as a failure). */
  skipped?: string;
  /** Further figures, by the keys of the section's `columns`. */
  extra?: Record<string, number | string | undefined>;
  /** Filled by {@link withRatios}: implementation ÷ twofold, for `value` and ratio columns. */
  ratios?: Record<string, number | undefined>;
}

/** A further figure of a section's rows. */
export interface Column {
  key: string;
  header: string;
  /** Also print this figure's ratio to twofold. */
  ratio?: boolean;
}

/** One table of the report. */
export interface Section {
  id: string;
  title: string;
  /** What the main figure counts, e.g. `calls/s` or `ms`. */
  unit: string;
  /** Whether a higher or a lower main figure is better. */
  better: 'higher' | 'lower';
  notes: string[];
  columns: Column[];
  rows: Row[];
}

/** Fills every row's ratios to the baseline row of its case. */
export function withRatios(section: Section): Section {
  const baselines = new Map<string, Row>();
  for (const row of section.rows) if (row.baseline) baselines.set(row.case, row);
  for (const row of section.rows) {
    const base = baselines.get(row.case);
    const ratios: Record<string, number | undefined> = {};
    ratios.value =
      row.value && base?.value && base.value.median !== 0
        ? row.value.median / base.value.median
        : undefined;
    for (const column of section.columns.filter((c) => c.ratio)) {
      const mine = row.extra?.[column.key];
      const theirs = base?.extra?.[column.key];
      ratios[column.key] =
        typeof mine === 'number' && typeof theirs === 'number' && theirs !== 0
          ? mine / theirs
          : undefined;
    }
    row.ratios = ratios;
  }
  return section;
}

/** A number for a table cell: grouped integers when large, 1–3 decimals when small. */
export function formatNumber(n: number | undefined): string {
  if (n === undefined || Number.isNaN(n)) return '–';
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US');
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  if (abs >= 1) return n.toFixed(2);
  return n.toFixed(3);
}

const ratio = (n: number | undefined) => (n === undefined ? '–' : `${n.toFixed(2)}×`);
const cell = (v: number | string | undefined) =>
  typeof v === 'string' ? cellText(v) : formatNumber(v);

/** The section as Markdown: a heading, its notes and the table. */
export function renderSection(section: Section): string {
  const direction =
    section.better === 'higher'
      ? 'higher is better: a ratio below 1 means slower or smaller than twofold'
      : 'lower is better: a ratio above 1 means slower or bigger than twofold';
  const headers = [
    'case',
    'implementation',
    `${section.unit} (median)`,
    'min–max',
    ...section.columns.map((c) => c.header),
    '÷ twofold',
    ...section.columns.filter((c) => c.ratio).map((c) => `${c.header} ÷ twofold`),
  ];
  const lines = [
    `### ${section.title}`,
    '',
    ...section.notes.flatMap((n) => [n, '']),
    `Ratios are implementation ÷ twofold (${direction}).`,
    '',
    `| ${headers.join(' | ')} |`,
    `| --- | --- | ${headers
      .slice(2)
      .map(() => '---:')
      .join(' | ')} |`,
  ];
  for (const row of section.rows) {
    const main = row.value
      ? [
          formatNumber(row.value.median),
          `${formatNumber(row.value.min)}–${formatNumber(row.value.max)}`,
        ]
      : [cellText(row.skipped ?? `**failed**: ${row.failure ?? 'no result'}`), '–'];
    const cells = [
      row.case,
      row.baseline ? `**${row.implementation}**` : row.implementation,
      ...main,
      ...section.columns.map((c) => cell(row.extra?.[c.key])),
      ratio(row.ratios?.value),
      ...section.columns.filter((c) => c.ratio).map((c) => ratio(row.ratios?.[c.key])),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Looks a row up by case and implementation (for the targets). */
export function findRow(
  sections: readonly Section[],
  id: string,
  caseName: string,
  implementation: string,
): Row | undefined {
  return sections
    .find((s) => s.id === id)
    ?.rows.find((r) => r.case === caseName && r.implementation === implementation);
}
