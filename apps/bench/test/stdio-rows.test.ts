/**
 * The stdio additions on tiny counts, against real processes: the JSON Schema variant of
 * twofold's server serves exactly the tools of the zod one (so its cold start times the same
 * work), and the one-CPU case gives each pair its figures, or says why there are none. Checks
 * answers and rows, never timings.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { benchConfig } from '../src/config';
import { BENCH_DIR, STDIO_PAIRS, TWOFOLD, TWOFOLD_LEGACY, TWOFOLD_MODERN } from '../src/impls';
import { ONE_CPU_CASE, runOneCpuThroughput } from '../src/stdio-one-cpu';

const LIST = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
};

/** The `tools/list` result of twofold's benchmark server started with `args`. */
async function listedTools(args: readonly string[]): Promise<unknown> {
  const child = spawn(process.execPath, [TWOFOLD.server, '--tools', '50', ...args], {
    cwd: BENCH_DIR,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stdin.end(`${JSON.stringify(LIST)}\n`);
  await once(child, 'exit');
  return JSON.parse(out.split('\n')[0] as string).result.tools;
}

describe('stdio rows', () => {
  it('the JSON Schema tools of twofold’s server are exactly its zod tools', async () => {
    const [zod, jsonSchema] = await Promise.all([listedTools([]), listedTools(['--json-schema'])]);
    expect(Array.isArray(zod) && zod.length).toBe(50);
    expect(jsonSchema).toEqual(zod);
  });

  it('the one-CPU case gives every pair figures, or the reason it could not pin', async () => {
    const tiny = {
      ...benchConfig(true),
      throughput: { turnMs: 50, rounds: 1, inFlight: [1], warmupMs: 50 },
    };
    const pairs = STDIO_PAIRS.filter((p) => p.name === TWOFOLD_MODERN || p.name === TWOFOLD_LEGACY);
    const rows = await runOneCpuThroughput(tiny, pairs);
    expect(rows.map((r) => [r.case, r.implementation])).toEqual(
      pairs.map((p) => [ONE_CPU_CASE, p.name]),
    );
    for (const row of rows) {
      if (row.failure !== undefined) {
        expect(row.failure).toMatch(/^skipped: /);
        console.log(`one-CPU case ${row.failure}`);
        continue;
      }
      expect(row.value?.median).toBeGreaterThan(0);
      expect(row.extra?.clientCpu).toBeGreaterThan(0);
      expect(row.extra?.serverCpu).toBeGreaterThan(0);
    }
  });
});
