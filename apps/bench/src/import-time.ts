/**
 * Import time: a fresh `node` per sample imports what a user imports for a client or a server
 * (the library entry and its stdio entry), alternating the implementations. The child reports
 * how long its `import()` took; the process's whole wall time (Node start included) is beside
 * it.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { alternate } from './alternate';
import type { BenchConfig } from './config';
import { BENCH_DIR, FLOOR_NAME } from './impls';
import type { Row, Section } from './report';
import { summarize } from './stats';

/** The entries imported per implementation and role. */
const ENTRIES: Record<string, { client: string[]; server: string[] }> = {
  twofold: {
    client: ['@twofold/client/experimental', '@twofold/client/node'],
    server: ['@twofold/server/experimental', '@twofold/server/node'],
  },
  'official 2.4.0': {
    client: ['@modelcontextprotocol/client', '@modelcontextprotocol/client/stdio'],
    server: ['@modelcontextprotocol/server', '@modelcontextprotocol/server/stdio'],
  },
  'official 1.32.2': {
    client: [
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/client/stdio.js',
    ],
    server: [
      '@modelcontextprotocol/sdk/server/mcp.js',
      '@modelcontextprotocol/sdk/server/stdio.js',
    ],
  },
  [FLOOR_NAME]: { client: ['node:child_process'], server: ['node:readline'] },
};

interface Sample {
  importMs: number;
  wallMs: number;
}

/** One fresh process importing `entries`; resolves with its timings. */
function importOnce(entries: readonly string[]): Promise<Sample> {
  const list = JSON.stringify(entries);
  const code = `const t=performance.now();await Promise.all(${list}.map((e)=>import(e)));process.stdout.write(String(performance.now()-t));`;
  const start = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const wallMs = performance.now() - start;
      if (code !== 0) reject(new Error(`importing ${list} exited with ${code}`));
      else resolve({ importMs: Number(out), wallMs });
    });
  });
}

/** The import-time table. */
export async function runImportTime(config: BenchConfig): Promise<Section> {
  const rows: Row[] = [];
  const names = Object.keys(ENTRIES);
  for (const role of ['client', 'server'] as const) {
    const samples = await alternate(
      names.length,
      { rounds: config.importTime.rounds, warmup: 1 },
      (i) => importOnce(ENTRIES[names[i] as string]?.[role] ?? []),
    );
    names.forEach((name, i) => {
      const s = samples[i] ?? [];
      rows.push({
        case: role,
        implementation: name,
        baseline: i === 0,
        value: summarize(s.map((x) => x.importMs)),
        extra: {
          wall: summarize(s.map((x) => x.wallMs)).median,
          entries: (ENTRIES[name]?.[role] ?? []).join(', '),
        },
      });
    });
  }
  return {
    id: 'footprint-import',
    title: 'Footprint: time to import',
    unit: 'import ms',
    better: 'lower',
    notes: [
      `A fresh \`node --input-type=module -e "await import(…)"\` per sample, ${config.importTime.rounds} per implementation, alternating. import ms: measured inside the child around the \`import()\`; wall ms: spawn to exit (Node's own start included). The floor imports a Node built-in.`,
    ],
    columns: [
      { key: 'wall', header: 'process wall ms', ratio: true },
      { key: 'entries', header: 'entries' },
    ],
    rows,
  };
}
