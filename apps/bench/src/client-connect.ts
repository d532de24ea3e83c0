/**
 * The cost of era detection: time from nothing (no process, no socket) to the first
 * `tools/list` result, twofold's `McpClient` in `auto` beside the same client pinned to the
 * era (what detection costs), the official client 2.4.0, and over stdio a floor written by
 * hand. The stdio fixtures record every process they start, so each row also shows how many
 * processes one connect took.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHttpCases } from './client-connect-http';
import {
  CONNECT_TABLE_HEADER,
  type ConnectContender,
  type ConnectSample,
  connectRows,
  type SamplingOptions,
  SpawnLog,
  sampleAlternating,
} from './client-connect-stats';
import {
  byHand,
  LEGACY_BY_HAND,
  MODERN_BY_HAND,
  officialStdio,
  twofoldStdio,
} from './client-connect-stdio';

/** The smaller probe timeout tried against the silent server. */
const SHORT_PROBE_MS = 500;

interface StdioCase {
  name: string;
  sampling: SamplingOptions;
  contenders: ConnectContender[];
}

function stdioCases(
  log: SpawnLog,
  runs: { fast: SamplingOptions; slow: SamplingOptions },
): StdioCase[] {
  const modern = 'twofold-stdio.mjs';
  const sdk1 = 'sdk1-stdio.mjs';
  const silent = 'silent-legacy-stdio.mjs';
  return [
    {
      name: 'stdio, modern server (twofold)',
      sampling: runs.fast,
      contenders: [
        { name: 'twofold auto', maxStarts: 1, run: twofoldStdio(modern, log, {}, 'modern') },
        {
          name: 'twofold pinned modern',
          role: 'pinned',
          maxStarts: 1,
          run: twofoldStdio(modern, log, { era: 'modern' }, 'modern'),
        },
        {
          name: 'official 2.4.0 auto (sibling probe)',
          role: 'official',
          maxStarts: 2,
          run: officialStdio(modern, log, 'modern', 'auto'),
        },
        {
          name: 'official 2.4.0 pinned 2026-07-28',
          maxStarts: 2,
          run: officialStdio(modern, log, 'modern', { pin: '2026-07-28' }),
        },
        {
          name: 'official 2.4.0 default (legacy initialize)',
          maxStarts: 1,
          run: officialStdio(modern, log, 'legacy'),
        },
        { name: 'floor: spawn + tools/list by hand', run: byHand(modern, log, MODERN_BY_HAND) },
      ],
    },
    {
      name: 'stdio, legacy server (SDK 1.32.2, probe → -32601)',
      sampling: runs.fast,
      contenders: [
        { name: 'twofold auto', maxStarts: 1, run: twofoldStdio(sdk1, log, {}, 'legacy') },
        {
          name: 'twofold pinned legacy',
          role: 'pinned',
          maxStarts: 1,
          run: twofoldStdio(sdk1, log, { era: 'legacy' }, 'legacy'),
        },
        {
          name: 'official 2.4.0 auto (sibling probe)',
          role: 'official',
          maxStarts: 2,
          run: officialStdio(sdk1, log, 'legacy', 'auto'),
        },
        {
          name: 'official 2.4.0 default (legacy initialize)',
          maxStarts: 1,
          run: officialStdio(sdk1, log, 'legacy'),
        },
        {
          name: 'floor: spawn + initialize + tools/list by hand',
          run: byHand(sdk1, log, LEGACY_BY_HAND),
        },
      ],
    },
    {
      name: 'stdio, silent legacy server (probe unanswered)',
      sampling: runs.slow,
      contenders: [
        {
          name: 'twofold auto, probe timeout 3000 ms (default)',
          maxStarts: 2,
          run: twofoldStdio(silent, log, {}, 'legacy'),
        },
        {
          name: `twofold auto, probe timeout ${SHORT_PROBE_MS} ms`,
          maxStarts: 2,
          run: twofoldStdio(silent, log, { probeTimeoutMs: SHORT_PROBE_MS }, 'legacy'),
        },
        {
          name: 'twofold pinned legacy',
          role: 'pinned',
          maxStarts: 1,
          run: twofoldStdio(silent, log, { era: 'legacy' }, 'legacy'),
        },
        {
          name: `official 2.4.0 auto, probe timeout ${SHORT_PROBE_MS} ms`,
          role: 'official',
          maxStarts: 2,
          run: officialStdio(silent, log, 'legacy', 'auto', SHORT_PROBE_MS),
        },
        {
          name: 'official 2.4.0 default (legacy initialize)',
          maxStarts: 1,
          run: officialStdio(silent, log, 'legacy'),
        },
      ],
    },
  ];
}

/**
 * Runs the client-connect benchmark and returns a Markdown table (and findings, if any);
 * `quick` keeps it under about a minute.
 */
export async function runClientConnectBench(quick: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'twofold-bench-'));
  const log = new SpawnLog(join(dir, 'spawns.log'));
  const lines = [...CONNECT_TABLE_HEADER];
  const findings: string[] = [];
  const record = (
    name: string,
    contenders: ConnectContender[],
    samples: ConnectSample[][],
    countsStarts: boolean,
  ) => {
    const result = connectRows(name, contenders, samples, countsStarts);
    lines.push(...result.rows);
    findings.push(...result.findings);
  };
  try {
    const runs = quick
      ? { fast: { runs: 4, warmup: 1 }, slow: { runs: 1, warmup: 0 } }
      : { fast: { runs: 25, warmup: 3 }, slow: { runs: 7, warmup: 1 } };
    for (const c of stdioCases(log, runs)) {
      record(c.name, c.contenders, await sampleAlternating(c.contenders, c.sampling, log), true);
    }
    const http = quick ? { runs: 30, warmup: 10 } : { runs: 300, warmup: 50 };
    await runHttpCases(http, (c, samples) => record(c.name, c.contenders, samples, false));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const notes = findings.map((f) => `- ${f}`);
  return [...lines, ...(notes.length > 0 ? ['', '**Findings:**', ...notes] : [])].join('\n');
}
