/**
 * Memory and open file descriptors of a process, read before and after a fuzz or soak run so
 * that a leak shows: RSS, heap used (after a forced GC where one can be forced) and the count
 * of `/proc/<pid>/fd` entries (Linux; absent elsewhere).
 */
import { readdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { formatNumber } from './report';

export interface Usage {
  rss: number;
  heapUsed: number;
  fds?: number;
}

/** Open file descriptors of `pid`, or undefined where `/proc` is not there. */
export function fdCount(pid: number | 'self' = 'self'): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

let collect: (() => void) | undefined;

/**
 * A full garbage collection in this process even without `--expose-gc` (tsx starts the bench
 * without it): the flag is set at run time and `gc` taken from a fresh context.
 */
function forceGc(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** This process's usage after a forced GC. */
export function ownUsage(): Usage {
  forceGc();
  const memory = process.memoryUsage();
  return { rss: memory.rss, heapUsed: memory.heapUsed, fds: fdCount() };
}

/**
 * The server's usage once the connections the clients closed are gone on its side too: read
 * again (a few times, briefly apart) while it still holds more fds than before.
 */
export async function settledUsage(read: () => Promise<Usage>, before: Usage): Promise<Usage> {
  let usage = await read();
  for (let attempt = 0; attempt < 5 && (usage.fds ?? 0) > (before.fds ?? 0); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    usage = await read();
  }
  return usage;
}

const MiB = 1024 * 1024;
const mib = (bytes: number) => formatNumber(bytes / MiB);
const change = (before: number | undefined, after: number | undefined, scale = 1) =>
  before === undefined || after === undefined
    ? '–'
    : `${after >= before ? '+' : ''}${formatNumber((after - before) / scale)}`;

export const USAGE_HEADER = [
  '| process | RSS MiB before | after | change | heap used MiB before | after | change | fds before | after | change |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];

/** One Markdown row of {@link USAGE_HEADER}. */
export function usageRow(process: string, before: Usage, after: Usage | undefined): string {
  const cells = [
    process,
    mib(before.rss),
    after ? mib(after.rss) : '–',
    change(before.rss, after?.rss, MiB),
    mib(before.heapUsed),
    after ? mib(after.heapUsed) : '–',
    change(before.heapUsed, after?.heapUsed, MiB),
    formatNumber(before.fds),
    formatNumber(after?.fds),
    change(before.fds, after?.fds),
  ];
  return `| ${cells.join(' | ')} |`;
}
