/**
 * The targets, checked against one run: each is a ratio of twofold to another
 * implementation (twofold ÷ other, so "≥ 3×" reads as written), met or missed.
 */
import { FOOTPRINT_BOTH } from './footprint';
import { httpCase } from './http-bench';
import {
  FLOOR_NAME,
  OFFICIAL_V1_NAME,
  OFFICIAL_V2_MODERN,
  OFFICIAL_V2_MODERN_PREBUILT,
  TWOFOLD_LEGACY,
  TWOFOLD_MODERN,
  TWOFOLD_MODERN_JSON_SCHEMA,
} from './impls';
import { cellText } from './markdown-tables';
import { findRow, type Row, type Section } from './report';
import { COLD_START_MODERN } from './stdio-cold-start';
import { sizeLabel } from './stdio-echo';
import { MiB } from './stdio-fleet';
import { ONE_CPU_CASE } from './stdio-one-cpu';
import { throughputCase } from './stdio-throughput';

/** One checked target. */
export interface TargetResult {
  target: string;
  /** twofold ÷ the other, or a plain verdict. */
  measured: string;
  needed: string;
  met: boolean | undefined;
}

type Pick = (row: Row) => number | undefined;
const main: Pick = (row) => row.value?.median;
const extra =
  (key: string): Pick =>
  (row) => {
    const v = row.extra?.[key];
    return typeof v === 'number' ? v : undefined;
  };

/** Checks every target the sections allow; a target whose rows are missing is `undefined`. */
export function checkTargets(sections: readonly Section[]): TargetResult[] {
  const results: TargetResult[] = [];
  const ratio = (
    target: string,
    [id, caseName]: [string, string],
    ours: string,
    theirs: string,
    op: '≥' | '≤',
    bound: number,
    pick: Pick = main,
  ) => {
    const a = findRow(sections, id, caseName, ours);
    const b = findRow(sections, id, caseName, theirs);
    const mine = a ? pick(a) : undefined;
    const other = b ? pick(b) : undefined;
    const needed = `${op} ${bound}×`;
    if (a?.failure?.startsWith('skipped')) {
      results.push({ target, measured: a.failure, needed, met: undefined });
    } else if (a && !a.value) {
      results.push({ target, measured: `twofold failed: ${a.failure}`, needed, met: false });
    } else if (b && !b.value && a?.value) {
      results.push({ target, measured: `${theirs} failed: ${b.failure}`, needed, met: true });
    } else if (mine === undefined || other === undefined || other === 0) {
      results.push({ target, measured: 'not measured', needed, met: undefined });
    } else {
      const r = mine / other;
      results.push({
        target,
        measured: `${r.toFixed(2)}×`,
        needed,
        met: op === '≥' ? r >= bound : r <= bound,
      });
    }
  };
  const tp = (n: number): [string, string] => ['stdio-throughput', throughputCase(n)];
  ratio(
    'stdio throughput, 1 in flight, vs official 2.4.0 modern',
    tp(1),
    TWOFOLD_MODERN,
    OFFICIAL_V2_MODERN,
    '≥',
    3,
  );
  ratio(
    'stdio throughput, 64 in flight, vs official 2.4.0 modern',
    tp(64),
    TWOFOLD_MODERN,
    OFFICIAL_V2_MODERN,
    '≥',
    4,
  );
  for (const n of [1, 64]) {
    ratio(
      `stdio throughput, ${n} in flight, vs official 1.32.2`,
      tp(n),
      TWOFOLD_MODERN,
      OFFICIAL_V1_NAME,
      '≥',
      1.5,
    );
    ratio(
      `stdio throughput, legacy, ${n} in flight, vs official 1.32.2`,
      tp(n),
      TWOFOLD_LEGACY,
      OFFICIAL_V1_NAME,
      '≥',
      n === 1 ? 1.5 : 2,
    );
    ratio(
      `stdio throughput, ${n} in flight, vs the floor`,
      tp(n),
      TWOFOLD_MODERN,
      FLOOR_NAME,
      '≥',
      0.5,
    );
  }
  // The same sequential calls with client and server on one CPU: what each library costs.
  const oneCpu: [string, string] = ['stdio-throughput', ONE_CPU_CASE];
  for (const [ours, theirs, bound] of [
    [TWOFOLD_MODERN, OFFICIAL_V2_MODERN, 3],
    [TWOFOLD_MODERN, OFFICIAL_V1_NAME, 1.5],
    [TWOFOLD_LEGACY, OFFICIAL_V1_NAME, 1.5],
  ] as const) {
    const era = ours === TWOFOLD_LEGACY ? 'legacy, ' : '';
    ratio(
      `stdio throughput, ${era}1 in flight on one CPU, vs ${theirs}`,
      oneCpu,
      ours,
      theirs,
      '≥',
      bound,
    );
  }
  const cold: [string, string] = ['stdio-cold-start', COLD_START_MODERN];
  // With zod tools (as the official servers have) and with JSON Schema tools (no zod at all).
  for (const [ours, label] of [
    [TWOFOLD_MODERN, 'zod tools'],
    [TWOFOLD_MODERN_JSON_SCHEMA, 'JSON Schema tools'],
  ] as const) {
    ratio(
      `stdio cold start, auto, modern server (${label}), vs official 2.4.0 auto`,
      cold,
      ours,
      OFFICIAL_V2_MODERN,
      '≤',
      0.3,
    );
    ratio(
      `stdio cold start, auto, modern server (${label}), vs the floor`,
      cold,
      ours,
      FLOOR_NAME,
      '≤',
      1.5,
    );
  }
  // Against the official server written well: schemas built once, outside its factory.
  const http: [string, string] = ['http-raw', httpCase(50, 'modern stateless', 16)];
  ratio(
    'HTTP modern, 50 tools, concurrency 16: req/s vs official 2.4.0, schemas built once',
    http,
    TWOFOLD_MODERN,
    OFFICIAL_V2_MODERN_PREBUILT,
    '≥',
    3,
  );
  ratio(
    'HTTP modern, 50 tools, concurrency 16: p99 vs official 2.4.0, schemas built once',
    http,
    TWOFOLD_MODERN,
    OFFICIAL_V2_MODERN_PREBUILT,
    '≤',
    0.5,
    extra('p99'),
  );
  const echo10: [string, string] = ['stdio-echo', sizeLabel(10 * MiB)];
  ratio(
    '10 MiB echo time vs official 2.4.0 modern',
    echo10,
    TWOFOLD_MODERN,
    OFFICIAL_V2_MODERN,
    '≤',
    0.5,
  );
  ratio('10 MiB echo time vs the floor', echo10, TWOFOLD_MODERN, FLOOR_NAME, '≤', 1.5);
  const fifty = findRow(sections, 'stdio-echo', sizeLabel(50 * MiB), TWOFOLD_MODERN);
  results.push({
    target: '50 MiB echo works with default settings',
    measured: fifty?.value
      ? `answered in ${fifty.value.median.toFixed(0)} ms`
      : `failed: ${fifty?.failure ?? 'not measured'}`,
    needed: 'answers',
    met: fifty ? fifty.value !== undefined : undefined,
  });
  const peak: [string, string] = ['stdio-peak-rss', 'throughput load'];
  ratio(
    'server peak RSS under throughput load vs official 2.4.0 modern',
    peak,
    TWOFOLD_MODERN,
    OFFICIAL_V2_MODERN,
    '≤',
    0.6,
  );
  for (const name of [TWOFOLD_MODERN, TWOFOLD_LEGACY]) {
    const leak = sections
      .find((s) => s.id === 'memory-leak')
      ?.rows.find((r) => r.implementation === name);
    results.push({
      target: `${name} server: no heap growth beyond noise (${leak?.case ?? 'leak check'})`,
      measured: leak?.value
        ? `${Number(leak.extra?.growth).toFixed(0)} KiB`
        : `failed: ${leak?.failure ?? 'not measured'}`,
      needed: '≤ 1,024 KiB',
      met: leak?.value ? leak.extra?.verdict === 'flat' : undefined,
    });
  }
  ratio(
    'install size, client + server, vs official 2.4.0 client + server + node',
    ['footprint-install', FOOTPRINT_BOTH],
    'twofold',
    'official 2.4.0',
    '≤',
    0.5,
  );
  for (const role of ['client', 'server']) {
    ratio(
      `import time, ${role}, vs official 2.4.0`,
      ['footprint-import', role],
      'twofold',
      'official 2.4.0',
      '≤',
      0.5,
    );
  }
  return results;
}

/** The targets as a Markdown table. */
export function renderTargets(results: readonly TargetResult[]): string {
  const verdict = (met: boolean | undefined) =>
    met === undefined ? 'not measured' : met ? 'met' : '**missed**';
  return [
    '### Targets (from this run)',
    '',
    'Measured is twofold ÷ the other implementation (for rates, higher is better for twofold; for times, sizes and p99, lower is better).',
    '',
    '| target | measured | needed | verdict |',
    '| --- | ---: | ---: | --- |',
    ...results.map(
      (r) => `| ${r.target} | ${cellText(r.measured)} | ${r.needed} | ${verdict(r.met)} |`,
    ),
  ].join('\n');
}
