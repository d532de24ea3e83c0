/**
 * stdio round trip: each implementation's server is spawned once (through tsx, like the rest
 * of the bench) and sent sequential modern `tools/call` requests; one round trip is one request
 * written to its stdin until its response is read from its stdout.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { EXPECTED_TEXT, toolsCallMessage } from './server-fixtures';
import { type LoadResult, summarize } from './server-stats';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

class StdioTarget {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private waiting: ((line: string) => void) | undefined;
  private nextId = 1;

  constructor(
    readonly name: string,
    entry: string,
  ) {
    const script = fileURLToPath(new URL(entry, import.meta.url));
    this.child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: BENCH_DIR,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve?.(line);
    });
  }

  /** One round trip; returns the response line (only one request is ever in flight). */
  roundTrip(): Promise<string> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting = (line) =>
        line.includes(`"id":${id}`) ? resolve(line) : reject(new Error(`${this.name}: ${line}`));
      this.child.stdin.write(`${JSON.stringify(toolsCallMessage(id))}\n`);
    });
  }

  async load(count: number): Promise<LoadResult> {
    const latencies: number[] = [];
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      const sent = performance.now();
      await this.roundTrip();
      latencies.push(performance.now() - sent);
    }
    return { perSecond: (count * 1000) / (performance.now() - start), latencies };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
      // A server that does not exit when its input ends is stopped.
      setTimeout(() => this.child.kill(), 2000).unref();
    });
  }
}

export interface StdioBenchOptions {
  rounds: number;
  /** Sequential round trips per turn. */
  count: number;
}

/** Runs both stdio servers in alternation; Markdown rows of the result table. */
export async function benchStdio(options: StdioBenchOptions): Promise<string[]> {
  const targets = [
    new StdioTarget('twofold', './server-stdio-twofold.ts'),
    new StdioTarget('official SDK 2.4.0', './server-stdio-official.ts'),
  ];
  try {
    for (const target of targets) {
      const line = await target.roundTrip();
      if (!line.includes(EXPECTED_TEXT)) throw new Error(`${target.name}: wrong answer ${line}`);
      await target.load(Math.min(options.count, 200));
    }
    const results = targets.map(() => [] as LoadResult[]);
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order)
        results[i]?.push(await (targets[i] as StdioTarget).load(options.count));
    }
    return summarize('stdio tools/call round trip, sequential', targets, results);
  } finally {
    await Promise.all(targets.map((target) => target.close()));
  }
}
