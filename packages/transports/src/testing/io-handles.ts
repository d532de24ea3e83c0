/**
 * Open processes, pipes, sockets and message ports, as Node lists them: a transport that is
 * closed (and its pair disposed of) must leave none of its own behind.
 */

/** Names from `process.getActiveResourcesInfo()` of handles a leaked transport would keep. */
const IO_RESOURCES = new Set([
  'ProcessWrap',
  'PipeWrap',
  'TCPSocketWrap',
  'TCPServerWrap',
  'MessagePort',
]);

/** How often, 10 ms apart, a handle is looked for again before it counts as leaked. */
const SETTLE_ATTEMPTS = 50;

/** Counts the open I/O handles by kind. */
export function countIoHandles(): Map<string, number> {
  const counts = new Map<string, number>();
  // Runtimes without this Node API (some vitest-compatible ones) get no leak check.
  if (typeof process === 'undefined' || typeof process.getActiveResourcesInfo !== 'function') {
    return counts;
  }
  for (const name of process.getActiveResourcesInfo()) {
    if (IO_RESOURCES.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

function newSince(before: ReadonlyMap<string, number>): string[] {
  return [...countIoHandles()].flatMap(([name, count]) => {
    const extra = count - (before.get(name) ?? 0);
    return extra > 0 ? [`${name} ×${extra}`] : [];
  });
}

/**
 * The handles open now that were not open at `before`. Handles close asynchronously, so a
 * handle only counts once it is still there after a bounded number of short waits.
 */
export async function leakedIoHandles(before: ReadonlyMap<string, number>): Promise<string[]> {
  let leaked = newSince(before);
  for (let attempt = 0; leaked.length > 0 && attempt < SETTLE_ATTEMPTS; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    leaked = newSince(before);
  }
  return leaked;
}
