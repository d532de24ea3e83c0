/**
 * One case of the hostile-server fuzz, in a process of its own so that a client crash shows as
 * this process dying: twofold's `McpClient` connects to `hostile-server.mjs` in `--mode`, makes
 * one `tools/call` the server answers badly (bounded by `--call-timeout` ms), then a
 * `tools/list` it answers well, then closes; every wait is bounded. Reports a {@link HostileOutcome} over IPC.
 * `node --import tsx hostile-client.ts --transport stdio|http --mode <mode> --call-timeout <ms>`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { McpClient, type ServerTarget } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import { LocalError, ProtocolError } from '@twofold/protocol/experimental';
import { Unanswered, within } from '../bounded';
import { BENCH_DIR } from '../impls';
import { ownUsage, type Usage } from '../process-usage';

/** The client's bound on every other request (connecting, the follow-up list). */
const OTHER_TIMEOUT_MS = 15_000;
/** What the client accepts as one message or response body (the `oversized` mode sends 2 MiB). */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** How much later than its bound a call may settle before it counts as a hang. */
const SLACK_MS = 5000;

/** How one bounded step ended. */
export interface StepOutcome {
  outcome: 'resolved' | 'rejected' | 'hung';
  ms: number;
  /** `LocalError` / `ProtocolError` code, or the error's name when it is of neither family. */
  error?: string;
  typed?: boolean;
}

export interface HostileOutcome {
  connect: StepOutcome;
  /** Absent when connecting failed. */
  call?: StepOutcome;
  followUp?: StepOutcome;
  close?: StepOutcome;
  before: Usage;
  after: Usage;
}

const SERVER = fileURLToPath(new URL('./hostile-server.mjs', import.meta.url));

async function step(run: () => Promise<unknown>, boundMs: number): Promise<StepOutcome> {
  const start = performance.now();
  const ms = () => Math.round(performance.now() - start);
  try {
    await within(run(), boundMs, 'step');
    return { outcome: 'resolved', ms: ms() };
  } catch (error) {
    if (error instanceof Unanswered) return { outcome: 'hung', ms: ms() };
    const typed = error instanceof LocalError || error instanceof ProtocolError;
    const code = typed ? String((error as LocalError | ProtocolError).code) : undefined;
    return { outcome: 'rejected', ms: ms(), typed, error: code ?? (error as Error).name };
  }
}

/** Starts the hostile HTTP server; resolves with it and its URL once it listens. */
async function startHttp(mode: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVER, '--transport', 'http', '--mode', mode], {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await within(once(child, 'message'), 10_000, 'hostile server')) as [
    { ready: string },
  ];
  return { child, url: message.ready };
}

async function run(
  transport: string,
  mode: string,
  callTimeoutMs: number,
): Promise<HostileOutcome> {
  const http = transport === 'http' ? await startHttp(mode) : undefined;
  const target: ServerTarget = http
    ? httpServer({ url: http.url, maxResponseBytes: MAX_MESSAGE_BYTES })
    : stdioServer({
        command: process.execPath,
        args: [SERVER, '--transport', 'stdio', '--mode', mode],
        cwd: BENCH_DIR,
        maxMessageBytes: MAX_MESSAGE_BYTES,
      });
  const before = ownUsage();
  let client: McpClient | undefined;
  // Connecting gets the client's ordinary bounds (the server answers it well, and a loaded
  // machine must not fail it); the spoiled call gets a short one of its own.
  const connect = await step(async () => {
    client = await McpClient.connect(target, {
      clientInfo: { name: 'bench-hostile', version: '1.0.0' },
      era: 'modern',
      cache: false,
      requestTimeoutMs: OTHER_TIMEOUT_MS,
    });
  }, OTHER_TIMEOUT_MS + SLACK_MS);
  const connected = client;
  if (connected === undefined) return { connect, before, after: ownUsage() };
  const call = await step(
    () => connected.callTool('echo', { text: 'hostile' }, { timeoutMs: callTimeoutMs }),
    callTimeoutMs + SLACK_MS,
  );
  const followUp = await step(() => connected.listTools(), OTHER_TIMEOUT_MS + SLACK_MS);
  const close = await step(() => connected.close(), OTHER_TIMEOUT_MS + SLACK_MS);
  if (http?.child.connected) http.child.disconnect();
  return { connect, call, followUp, close, before, after: ownUsage() };
}

const argv = process.argv;
const option = (name: string) => argv[argv.indexOf(`--${name}`) + 1] ?? '';
const outcome = await run(option('transport'), option('mode'), Number(option('call-timeout')));
process.send?.(outcome);
process.disconnect?.();
