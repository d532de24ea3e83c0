/**
 * The client side of the fuzz: twofold's client against hostile servers, over stdio and HTTP,
 * one case per process (`hostile-client.ts`). A case passes when the badly answered call ends
 * as it must (a typed rejection, or the good answer where one came), within its bound, and the
 * client neither crashed, hung, nor kept its process alive after closing.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { BENCH_DIR } from '../impls';
import { cellText } from '../markdown-tables';
import { formatNumber } from '../report';
import type { HostileOutcome, StepOutcome } from './hostile-client';

/** The bound of the spoiled call: short, since the client must give up on its own in time. */
const CALL_TIMEOUT_MS = 2000;
/** The flood's bound: its answer does come, after 5,000 events that take a while on a busy machine. */
const FLOOD_TIMEOUT_MS = 15_000;

/** Each hostile mode and how the call it spoils must end. */
const MODES: readonly {
  mode: string;
  what: string;
  call: 'resolved' | 'rejected';
  timeoutMs?: number;
}[] = [
  { mode: 'garbage', what: 'answers with a line that is not JSON', call: 'rejected' },
  { mode: 'duplicate', what: 'answers twice', call: 'resolved' },
  { mode: 'unknown-id', what: 'answers an id never sent', call: 'rejected' },
  { mode: 'silent', what: 'never answers', call: 'rejected' },
  {
    mode: 'flood',
    what: '5,000 notifications, then the answer',
    call: 'resolved',
    timeoutMs: FLOOD_TIMEOUT_MS,
  },
  { mode: 'oversized', what: 'a 2 MiB answer (client limit 1 MiB)', call: 'rejected' },
  { mode: 'invalid-result', what: 'a result of the wrong shape', call: 'rejected' },
  { mode: 'crash', what: 'exits when called', call: 'rejected' },
];
const TRANSPORTS = ['stdio', 'HTTP'] as const;
/** Cases running at once (each is a client process and a server process). */
const PARALLEL = 4;
/** A case process that has not reported by then is stopped and counted as hung. */
const CASE_BOUND_MS = 60_000;
const EXIT_BOUND_MS = 10_000;

const SCRIPT = fileURLToPath(new URL('./hostile-client.ts', import.meta.url));

export interface HostileCase {
  transport: string;
  mode: string;
  what: string;
  expected: 'resolved' | 'rejected';
  /** The bound of the spoiled call. */
  timeoutMs: number;
  outcome?: HostileOutcome;
  /** Why the case failed; undefined when it passed. */
  defect?: string;
}

async function runCase(c: HostileCase): Promise<HostileOutcome | string> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SCRIPT,
      '--transport',
      c.transport.toLowerCase(),
      '--mode',
      c.mode,
      '--call-timeout',
      String(c.timeoutMs),
    ],
    { cwd: BENCH_DIR, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-1500);
  });
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  const watchdog = setTimeout(() => child.kill('SIGKILL'), CASE_BOUND_MS);
  const reported = once(child, 'message').then(([m]) => m as HostileOutcome);
  const first = await Promise.race([reported, exited.then(() => undefined)]);
  const lingering = setTimeout(() => child.kill('SIGKILL'), EXIT_BOUND_MS);
  const [code, signal] = await exited;
  clearTimeout(watchdog);
  clearTimeout(lingering);
  if (first === undefined) {
    return signal === 'SIGKILL'
      ? `the client process hung (killed after ${CASE_BOUND_MS / 1000} s)`
      : `the client process crashed (${signal ?? code}): ${stderr.trim().slice(-400)}`;
  }
  if (signal === 'SIGKILL')
    return `the client kept its process alive after close() (killed after ${EXIT_BOUND_MS / 1000} s)`;
  return first;
}

function judge(c: HostileCase, outcome: HostileOutcome): string | undefined {
  const { connect, call, followUp, close } = outcome;
  const steps: [string, StepOutcome | undefined][] = [
    ['connect', connect],
    ['the call', call],
    ['the follow-up tools/list', followUp],
    ['close()', close],
  ];
  for (const [name, step] of steps) {
    if (step?.outcome === 'hung') return `${name} did not settle within its bound`;
    if (step?.outcome === 'rejected' && !step.typed) {
      return `${name} rejected with an untyped ${step.error}`;
    }
  }
  if (connect.outcome !== 'resolved') return `connect rejected (${connect.error})`;
  if (call?.outcome !== c.expected) {
    return `the call ${call?.outcome}${call?.error ? ` (${call.error})` : ''}, expected ${c.expected}`;
  }
  if (close?.outcome !== 'resolved') return `close() rejected (${close?.error})`;
  return undefined;
}

/** Runs every hostile case, a few at a time. */
export async function runHostile(): Promise<HostileCase[]> {
  const cases: HostileCase[] = TRANSPORTS.flatMap((transport) =>
    MODES.map((m) => ({
      transport,
      mode: m.mode,
      what: m.what,
      expected: m.call,
      timeoutMs: m.timeoutMs ?? CALL_TIMEOUT_MS,
    })),
  );
  let next = 0;
  const worker = async () => {
    for (let c = cases[next++]; c !== undefined; c = cases[next++]) {
      const result = await runCase(c);
      if (typeof result === 'string') c.defect = result;
      else {
        c.outcome = result;
        c.defect = judge(c, result);
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return cases;
}

const stepCell = (step: StepOutcome | undefined) =>
  step ? `${step.outcome}${step.error ? ` ${step.error}` : ''} (${formatNumber(step.ms)} ms)` : '–';

/** The cases as Markdown table rows. */
export function hostileTable(cases: readonly HostileCase[]): string[] {
  return [
    '| transport | server | expected | the call | follow-up tools/list | close() | client fds before → after | verdict |',
    '| --- | --- | --- | --- | --- | --- | ---: | --- |',
    ...cases.map((c) => {
      const o = c.outcome;
      const fds = o ? `${formatNumber(o.before.fds)} → ${formatNumber(o.after.fds)}` : '–';
      const cells = [
        c.transport,
        `${c.mode}: ${c.what}`,
        c.expected,
        stepCell(o?.call),
        stepCell(o?.followUp),
        stepCell(o?.close),
        fds,
        c.defect ? `**${c.defect}**` : 'ok',
      ];
      return `| ${cells.map(cellText).join(' | ')} |`;
    }),
  ];
}
