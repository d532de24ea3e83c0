/**
 * The fuzz over stdio: twofold's benchmark server as a child process, sent the frames one line
 * each as fast as its stdin takes them, its stdout read throughout. Answers are matched to
 * frames by id; errors without an id are matched in order (the server answers unreadable lines
 * as it frames them, in order), and any beyond those expected are counted apart.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { within } from '../bounded';
import { BENCH_DIR, TWOFOLD } from '../impls';
import type { Usage } from '../process-usage';
import { generateFrames, META } from './frames';
import type { Prng } from './prng';
import { ResponseBook } from './response-book';
import { Tally } from './tally';

/** The server's default largest stdio message (64 MiB): one frame a run goes past it. */
const STDIO_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** How long the server may go quiet before the frames still unanswered count as missing. */
const QUIET_MS = 15_000;

export interface FuzzRun {
  tally: Tally;
  /** Why the server is gone, when it did not survive. */
  crashed?: string;
  before: Usage;
  after?: Usage;
}

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** The server's own usage, asked through its `bench_stats` tool after a forced GC. */
async function serverUsage(child: Child, book: ResponseBook, n: number): Promise<Usage> {
  const id = `ctl-${n}`;
  const message = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      _meta: META,
      name: 'bench_stats',
      arguments: { gc: true },
    },
  };
  const answer = within(book.control(id), 30_000, 'bench_stats over stdio');
  child.stdin.write(`${JSON.stringify(message)}\n`);
  const response = (await answer) as { result?: { content?: { text?: string }[] } };
  return JSON.parse(response.result?.content?.[0]?.text ?? '{}') as Usage;
}

/** Sends `count` frames from `rng` to a fresh stdio server and checks every answer. */
export async function fuzzStdio(rng: Prng, count: number, oversized: boolean): Promise<FuzzRun> {
  const child: Child = spawn(
    process.execPath,
    ['--expose-gc', TWOFOLD.server, '--transport', 'stdio', '--tools', '2'],
    { cwd: BENCH_DIR, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderrTail = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
  });
  // A server that dies mid-run makes writes fail with EPIPE: the exit is what gets reported.
  child.stdin.on('error', () => undefined);
  const exited = once(child, 'exit');
  const book = new ResponseBook();
  createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
    book.receive(line),
  );
  const tally = new Tally('stdio');
  const crash = () =>
    child.exitCode === null && child.signalCode === null
      ? undefined
      : `server exited (${child.signalCode ?? child.exitCode}); stderr: ${stderrTail.trim() || 'empty'}`;
  try {
    const before = await serverUsage(child, book, 0);
    for (const frame of generateFrames(rng, count, 'stdio', {
      maxMessageBytes: STDIO_MAX_MESSAGE_BYTES,
      oversized: oversized ? 1 : 0,
    })) {
      if (crash()) break;
      book.expect(frame);
      child.stdin.write(frame.body);
      if (!child.stdin.write('\n')) await Promise.race([once(child.stdin, 'drain'), exited]);
    }
    await Promise.race([book.settled(QUIET_MS), exited]);
    const crashed = crash();
    const after = crashed ? undefined : await serverUsage(child, book, 1).catch(() => undefined);
    book.judge(tally);
    return { tally, crashed: crashed ?? crash(), before, after };
  } finally {
    child.stdin.end();
    const timer = setTimeout(() => child.kill(), 3000);
    await exited;
    clearTimeout(timer);
  }
}
