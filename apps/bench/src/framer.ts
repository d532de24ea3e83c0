/**
 * stdio framing benchmark: one large message (1, 10 and 50 MiB) fed in 64 KiB chunks, as a
 * pipe delivers it, through twofold's `NdjsonDecoder` and through the official SDK's stdio
 * `ReadBuffer` (`@modelcontextprotocol/server` 2.4.0), driven the way its stdio transports
 * drive it: `append` each chunk, then `readMessage` until it returns null. Both sides end with a
 * parsed, envelope-checked message (the SDK also runs its zod envelope schema).
 *
 * A message of n bytes in chunks of c bytes costs twofold O(n); the SDK re-concatenates and
 * re-scans its buffer per chunk, O(n²/c). The "ms per MiB" column shows it: flat when linear.
 * One operation here takes up to seconds, so this does not use the ops/s harness; it alternates
 * the two implementations round by round in the same way.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ReadBuffer } from '@modelcontextprotocol/server';
import { NdjsonDecoder } from '@twofold/transports/node';

const MiB = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
/** Above the largest case, so neither side rejects it (the SDK defaults to 10 MiB). */
const LIMIT = 64 * MiB;

interface Case {
  label: string;
  /** Total bytes fed. */
  bytes: number;
  chunks: Buffer[];
  /** Messages the input holds. */
  messages: number;
  rounds: number;
}

/** One line: a tools/call result whose text (mostly ASCII, some CJK) makes it `size` bytes. */
function messageLine(size: number, id: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`;
  const tail = '"}]}}\n';
  const filler = 'lorem ipsum dolor sit amet, 日本語 ✓ ';
  const fillerBytes = Buffer.byteLength(filler);
  const room = size - Buffer.byteLength(head + tail);
  const repeats = Math.floor(room / fillerBytes);
  return head + filler.repeat(repeats) + ' '.repeat(room - repeats * fillerBytes) + tail;
}

function chunked(bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    chunks.push(bytes.subarray(at, at + CHUNK_BYTES));
  }
  return chunks;
}

function largeMessageCase(mib: number, rounds: number): Case {
  const bytes = Buffer.from(messageLine(mib * MiB, 1));
  return {
    label: `1 × ${mib} MiB message`,
    bytes: bytes.length,
    chunks: chunked(bytes),
    messages: 1,
    rounds,
  };
}

function manySmallCase(totalMiB: number, rounds: number): Case {
  const count = totalMiB * 1024;
  const lines: string[] = [];
  for (let id = 0; id < count; id++) lines.push(messageLine(1024, id));
  const bytes = Buffer.from(lines.join(''));
  return {
    label: `${count} × 1 KiB messages`,
    bytes: bytes.length,
    chunks: chunked(bytes),
    messages: count,
    rounds,
  };
}

function runTwofold(chunks: readonly Buffer[]): number {
  const decoder = new NdjsonDecoder({ maxMessageBytes: LIMIT });
  let count = 0;
  for (const chunk of chunks) {
    for (const frame of decoder.push(chunk)) {
      if (!frame.ok) throw frame.error;
      count++;
    }
  }
  return count;
}

function runOfficial(chunks: readonly Buffer[]): number {
  const buffer = new ReadBuffer({ maxBufferSize: LIMIT });
  let count = 0;
  for (const chunk of chunks) {
    buffer.append(chunk);
    while (buffer.readMessage() !== null) count++;
  }
  return count;
}

const contenders = [
  { name: 'twofold NdjsonDecoder', run: runTwofold },
  { name: 'official ReadBuffer 2.4.0', run: runOfficial },
] as const;

/**
 * A full garbage collection, so that one side's garbage (the official side makes gigabytes of
 * it on large inputs) is not collected on the other side's clock.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function timeOnce(run: (chunks: readonly Buffer[]) => number, c: Case): number {
  collectGarbage();
  const start = performance.now();
  const count = run(c.chunks);
  const ms = performance.now() - start;
  if (count !== c.messages) throw new Error(`bench: expected ${c.messages} messages, got ${count}`);
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid)
    ? ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
    : (sorted[Math.floor(mid)] ?? 0);
}
const fixed = (n: number, digits = 1) => n.toFixed(digits);

/**
 * Runs the framing cases and returns a Markdown table: median time and throughput per
 * implementation, ms per MiB (flat means linear), and twofold's speed-up over the official SDK.
 */
export function runFramerBench(quick: boolean): string {
  const cases = quick
    ? // Quick mode leaves out 50 MiB: the official side alone takes seconds per round there
      // (the end-to-end echo section still sends 50 MiB).
      [largeMessageCase(1, 3), largeMessageCase(10, 2), manySmallCase(10, 2)]
    : [
        largeMessageCase(1, 15),
        largeMessageCase(10, 7),
        largeMessageCase(50, 5),
        manySmallCase(10, 9),
      ];
  const lines = [
    ...(quick ? ['Quick mode: the 50 MiB case runs in full mode only.', ''] : []),
    `Chunks of ${CHUNK_BYTES / 1024} KiB. Throughput in MB/s (10^6 bytes) of input; median over rounds, min–max beside it.`,
    '',
    '| input | implementation | time (median) | MB/s (median) | min–max MB/s | ms per MiB | speed-up of twofold |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  // Warm both up on the smallest case only: a warm-up turn of the official side on 50 MiB
  // alone would take seconds.
  for (const contender of contenders) timeOnce(contender.run, cases[0] as Case);
  for (const c of cases) {
    const samples = contenders.map(() => [] as number[]);
    for (let round = 0; round < c.rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) samples[i]?.push(timeOnce((contenders[i] ?? contenders[0]).run, c));
    }
    const [ours, theirs] = samples.map((s) => median(s)) as [number, number];
    contenders.forEach((contender, i) => {
      const times = samples[i] ?? [];
      const mbps = (ms: number) => fixed(c.bytes / 1e6 / (ms / 1000));
      const ms = median(times);
      const range = `${mbps(Math.max(...times))}–${mbps(Math.min(...times))}`;
      const perMiB = fixed(ms / (c.bytes / MiB), 2);
      const speedUp = i === 0 ? `${fixed(theirs / ours, 2)}×` : '1.00× (baseline)';
      const cells = [c.label, contender.name, `${fixed(ms)} ms`, mbps(ms), range, perMiB, speedUp];
      lines.push(`| ${cells.join(' | ')} |`);
    });
  }
  return lines.join('\n');
}
