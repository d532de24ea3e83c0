// The client side of every implementation runs in its own process, driven by the benchmark over
// the IPC channel, so one client's heap, JIT and garbage never run on another's clock, and its
// peak RSS is its own. Each adapter (twofold.mjs, official-v2.mjs, ...) supplies `connect`; this
// file does the rest: the commands, the timing and the checks, identically for all of them.
import { performance } from 'node:perf_hooks';

const ECHO = 'echo';
const STATS = 'bench_stats';

/** Fails a command with `message` unless `ok`. */
function check(ok, message) {
  if (!ok) throw new Error(message);
}

/** The process statistics of this client, after a forced GC when asked. */
function ownStats(gc) {
  if (gc && typeof globalThis.gc === 'function') globalThis.gc();
  const memory = process.memoryUsage();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
}

/** The CPU time the server process has used so far, in µs, read through its stats tool. */
async function serverCpuMicros(connection) {
  return JSON.parse(await connection.call(STATS, { gc: false })).cpuMicros;
}

/** Resolves with `promise`, or rejects after `ms` (timer cleared either way). */
function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Keeps `inFlight` echo calls outstanding until `shouldStop()`; every latency in ms. Each answer
 * is compared to what was sent, so a wrong or empty answer fails the run rather than counting.
 */
async function drive(connection, inFlight, shouldStop, text) {
  const latencies = [];
  const worker = async () => {
    while (!shouldStop(latencies.length)) {
      const sent = performance.now();
      const answer = await connection.call(ECHO, { text });
      latencies.push(performance.now() - sent);
      check(answer === text, `wrong echo answer: ${String(answer).slice(0, 120)}`);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { elapsedMs: performance.now() - start, latencies: Float64Array.from(latencies) };
}

/**
 * Warnings the library raised in this process (the driver runs with `--no-warnings`, so they
 * are reported once, counted, instead of flooding the output), keyed with digits masked.
 */
const warnings = new Map();
process.on('warning', (warning) => {
  const key = `${warning.name}: ${warning.message.replace(/\d+/g, 'N')}`;
  warnings.set(key, (warnings.get(key) ?? 0) + 1);
});

/** Runs the command loop of a client driver over `adapter.connect(target)`. */
export function runDriver(adapter) {
  let connection;
  let lost;
  const open = async (target) => {
    const opened = await adapter.connect(target);
    lost = undefined;
    opened.onLost?.((reason) => {
      lost = reason ?? 'connection lost';
    });
    return opened;
  };
  const closeCurrent = async () => {
    const current = connection;
    connection = undefined;
    await current?.close().catch(() => {});
  };
  const commands = {
    async coldStart({ target }) {
      const start = performance.now();
      const opened = await adapter.connect(target);
      try {
        const tools = await opened.listTools();
        const ms = performance.now() - start;
        check(tools === target.tools, `listed ${tools} tools, expected ${target.tools}`);
        check(!target.expectEra || opened.era === target.expectEra, `era ${opened.era}`);
        return { ms };
      } finally {
        // Teardown is awaited, not timed: no process of one sample outlives it.
        await opened.close();
      }
    },
    async open({ target }) {
      await closeCurrent();
      connection = await open(target);
      const tools = await connection.listTools();
      check(tools === target.tools, `listed ${tools} tools, expected ${target.tools}`);
      check(!target.expectEra || connection.era === target.expectEra, `era ${connection.era}`);
      check((await connection.call(ECHO, { text: 'ready' })) === 'ready', 'echo failed');
      return { era: connection.era };
    },
    async load({ inFlight, durationMs, text, cpu }) {
      const turn = () => {
        const deadline = performance.now() + durationMs;
        return drive(connection, inFlight, () => performance.now() >= deadline, text);
      };
      if (!cpu) return turn();
      // CPU of both processes over the turn alone: the two stats calls sit outside it.
      const serverBefore = await serverCpuMicros(connection);
      const clientBefore = process.cpuUsage();
      const result = await turn();
      const client = process.cpuUsage(clientBefore);
      const server = (await serverCpuMicros(connection)) - serverBefore;
      return { ...result, clientCpuMicros: client.user + client.system, serverCpuMicros: server };
    },
    async run({ inFlight, calls, text }) {
      const { elapsedMs } = await drive(connection, inFlight, (done) => done >= calls, text);
      return { elapsedMs };
    },
    async echo({ bytes, timeoutMs }) {
      const text = 'x'.repeat(bytes);
      const start = performance.now();
      try {
        const answer = await within(connection.call(ECHO, { text }, timeoutMs), timeoutMs, 'echo');
        check(answer === text, `wrong answer (${String(answer).length} chars back)`);
        return { ms: performance.now() - start };
      } catch (error) {
        const ms = performance.now() - start;
        const reason = error instanceof Error ? error.message : String(error);
        // A failed echo may leave the connection dead or wedged: the next case reconnects.
        const wasLost = lost;
        await closeCurrent();
        return { ms, failure: wasLost ? `${reason} (${wasLost})` : reason };
      }
    },
    async serverStats({ gc }) {
      return JSON.parse(await connection.call(STATS, { gc }));
    },
    async clientStats({ gc }) {
      return ownStats(gc);
    },
    async close() {
      await closeCurrent();
      return {};
    },
    async warnings() {
      return [...warnings].map(([warning, count]) => ({ warning, count }));
    },
  };
  process.on('message', async (message) => {
    const { id, op, ...args } = message;
    try {
      const command = commands[op];
      check(command !== undefined, `unknown command ${op}`);
      const standalone = ['coldStart', 'open', 'clientStats', 'close', 'warnings'].includes(op);
      check(standalone || connection, 'no connection');
      process.send({ id, ok: true, result: await command(args) });
    } catch (error) {
      process.send({
        id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  });
  process.on('disconnect', () => {
    closeCurrent().finally(() => process.exit(0));
  });
  process.send({ ready: true });
}
