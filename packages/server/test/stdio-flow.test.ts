// The stdio server as a real child process under a client that stops reading (backpressure)
// and one that closes stdin with requests in flight (end of input). Every wait is for an event
// of the child (a stderr report, an answer, its exit); none is for wall time.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { JsonRpcMessage, JsonRpcResponse } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { tsxLoader } from '../../../config/test-support/servers.ts';
import { modernParams } from './support/peer';

const FIXTURE = fileURLToPath(new URL('./fixtures/flow-server.ts', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface FlowReport {
  event: string;
  largest: number;
}

/** The fixture server, with its stderr flow reports parsed as they come. */
function startServer(args: string[]) {
  const child = spawn(process.execPath, ['--import', tsxLoader(import.meta.url), FIXTURE, ...args]);
  children.push(child);
  const reports: FlowReport[] = [];
  const errors: string[] = [];
  let watcher: (() => void) | undefined;
  let pending = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    const parts = (pending + text).split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      const [kind, event = '', largest = '0'] = part.split(' ');
      if (kind === 'flow') reports.push({ event, largest: Number(largest) });
      else errors.push(part);
    }
    watcher?.();
  });
  /** Resolves once `condition` holds over the reports received (checked on each report). */
  const reported = (condition: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        watcher = undefined;
        resolve();
      };
      watcher = check;
      child.once('exit', () => reject(new Error(`server exited; stderr: ${errors.join('\n')}`)));
      check();
    });
  const exited = once(child, 'close') as Promise<[number | null, string | null]>;
  return { child, reports, errors, reported, exited };
}

/** Every JSON line the child writes on stdout, once reading starts. */
function readAnswers(child: ChildProcessWithoutNullStreams) {
  const answers: JsonRpcResponse[] = [];
  let watcher: (() => void) | undefined;
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const parts = (pending + text).split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) answers.push(JSON.parse(part) as JsonRpcResponse);
    watcher?.();
  });
  const until = (count: number) =>
    new Promise<void>((resolve) => {
      watcher = () => {
        if (answers.length >= count) resolve();
      };
      watcher();
    });
  return { answers, until };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: modernParams({ name, arguments: args }),
});

describe('stdio server backpressure (a real child process)', () => {
  // 6,000 calls through a child started from source (tsx): over ten seconds on a busy machine,
  // so the bound is for that work (enough calls that an unheld backlog would pass BOUND).
  it('stops reading stdin while its stdout is not read, keeping its backlog bounded', {
    timeout: 60_000,
  }, async () => {
    const MARK = 64 * 1024;
    // Answers to what one read can bring in (64 KiB of requests, ~4x their size as answers)
    // may still be queued after the mark; without backpressure all ~9 MB would be.
    const BOUND = MARK + 1024 * 1024;
    const COUNT = 6000;
    const server = startServer(['--mark', String(MARK)]);
    const { child, reports } = server;
    // Nothing reads the child's stdout yet: its pipe fills, then its own buffer does.
    let blocked = false;
    for (let id = 1; id <= COUNT; id++) {
      if (!child.stdin.write(`${JSON.stringify(call(id, 'pad', { bytes: 1024 }))}\n`)) {
        blocked = true;
      }
    }
    expect(blocked).toBe(true);
    const overBound = () => reports.some((r) => r.largest > BOUND);
    await server.reported(() => overBound() || reports.some((r) => r.event === 'pause'));
    expect(overBound(), 'stdout backlog over the bound before any pause').toBe(false);
    // The child holds its input: most of what we wrote still waits on our side of the pipe.
    expect(child.stdin.writableNeedDrain).toBe(true);
    expect(child.stdin.writableLength).toBeGreaterThan(COUNT * 100);

    const { answers, until } = readAnswers(child);
    await until(COUNT);
    const ids = answers.map((a) => a.id);
    expect(new Set(ids).size).toBe(COUNT);
    expect(answers.every((a) => 'result' in a)).toBe(true);
    child.stdin.end();
    expect(await server.exited).toEqual([0, null]);

    expect(reports.reduce((max, r) => Math.max(max, r.largest), 0)).toBeLessThanOrEqual(BOUND);
    // Held means held: between a pause and the next resume, stdin delivers nothing.
    let held = false;
    for (const { event } of reports) {
      if (event === 'pause') held = true;
      else if (event === 'resume') held = false;
      else expect(held, 'a stdin read while the input was held').toBe(false);
    }
    expect(server.errors).toEqual([]);
  });
});

describe('stdio server at end of input (a real child process)', () => {
  it('answers a call still running and a last line without newline, then exits', async () => {
    const server = startServer([]);
    const { answers, until } = readAnswers(server.child);
    server.child.stdin.write(`${JSON.stringify(call(1, 'after_eof'))}\n`);
    server.child.stdin.end(JSON.stringify(call(2, 'pad', { bytes: 3 })));
    await until(2);
    expect(await server.exited).toEqual([0, null]);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    const texts = answers.map((a) => ('result' in a ? a.result.content : undefined));
    expect(texts).toContainEqual([{ type: 'text', text: 'answered after end of input' }]);
    expect(texts).toContainEqual([{ type: 'text', text: 'ppp' }]);
  });

  it('gives up on a call that never ends after the grace period, and still exits', async () => {
    const server = startServer(['--grace', '50']);
    const { answers } = readAnswers(server.child);
    server.child.stdin.write(`${JSON.stringify(call(1, 'hang'))}\n`);
    server.child.stdin.end(`${JSON.stringify(call(2, 'pad', { bytes: 1 }))}\n`);
    expect(await server.exited).toEqual([0, null]);
    expect(answers.map((a) => a.id)).toEqual([2]);
  });
});
