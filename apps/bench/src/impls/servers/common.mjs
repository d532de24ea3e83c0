// What every benchmark server shares, with no dependency (the floor imports it too): the tool
// names and descriptions, command-line options and the process statistics `bench_stats` and
// the HTTP side channel report.
import { readdirSync } from 'node:fs';

export const ECHO = 'echo';
export const STATS = 'bench_stats';

/** The value of `--name value` on the command line, or `fallback`. */
export function option(name, fallback, argv = process.argv) {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : argv[at + 1];
}

/** The tool count asked for on the command line (`--tools 50`); 2 by default. */
export function toolCount(argv = process.argv) {
  const count = Number(option('tools', '2', argv));
  if (!Number.isInteger(count) || count < 2) throw new Error(`bad --tools: ${count}`);
  return count;
}

/** Open file descriptors of this process (Linux; undefined where there is no /proc). */
function openFds() {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

/** This process's memory, CPU and open fds; `gc` runs a full collection first (needs `--expose-gc`). */
export function stats(gc) {
  if (gc && typeof globalThis.gc === 'function') globalThis.gc();
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    heapTotal: memory.heapTotal,
    external: memory.external,
    // resourceUsage reports the peak resident set in KiB.
    maxRss: process.resourceUsage().maxRSS * 1024,
    cpuMicros: cpu.user + cpu.system,
    gcExposed: typeof globalThis.gc === 'function',
    fds: openFds(),
  };
}

/** Name and description of each tool; the first two are `echo` and `bench_stats`. */
export function toolHeads(count) {
  const heads = [
    { name: ECHO, description: 'Answers the given text back.' },
    { name: STATS, description: 'Memory and CPU of this server process.' },
  ];
  for (let i = 0; i < count - 2; i++) {
    heads.push({ name: `tool_${i}`, description: `Does thing ${i} and returns a short report.` });
  }
  return heads;
}

/** The answer of a look-alike tool. */
export const fillerAnswer = (name, args) => `${name}: ${args.query}`;

/** The answer of any tool, from its name and arguments. */
export function answer(name, args) {
  if (name === ECHO) return args.text;
  if (name === STATS) return JSON.stringify(stats(args.gc === true));
  return fillerAnswer(name, args);
}

/**
 * Calls `onLine` with each newline-terminated line of `stream` (a Buffer, without the newline),
 * framing in linear time: the floor's client and server both read this way.
 */
export function onLines(stream, onLine) {
  let pending = [];
  stream.on('data', (chunk) => {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (end === -1) {
        if (start < chunk.length) pending.push(chunk.subarray(start));
        return;
      }
      pending.push(chunk.subarray(start, end));
      const line = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      pending = [];
      start = end + 1;
      onLine(line);
    }
  });
}
