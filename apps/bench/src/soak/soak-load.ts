/**
 * The load of the soak: `workers` loops sharing a set of twofold clients, each calling `echo`
 * with a text of its own (so an answer meant for another call shows) and now and then
 * `tools/list`, until the deadline. Every call is bounded twice: by the client's own timeout
 * and, should that fail to fire, by a watchdog that counts it as hung.
 */
import { performance } from 'node:perf_hooks';
import type { McpClient } from '@twofold/client/experimental';
import { LocalError, ProtocolError } from '@twofold/protocol/experimental';
import { Unanswered, within } from '../bounded';

/** The client's bound on one call. */
export const SOAK_CALL_TIMEOUT_MS = 10_000;
const WATCHDOG_MS = SOAK_CALL_TIMEOUT_MS + 5000;
/** Every `LIST_EVERY`-th call of a worker lists the tools instead of calling echo. */
const LIST_EVERY = 5;

export interface LoadCounts {
  requests: number;
  /** Calls that failed, by error code (a timeout is also counted as missing). */
  errors: Record<string, number>;
  /** Calls whose answer never came: the client's timeout or the watchdog ended them. */
  missing: number;
  /** Calls the watchdog had to end (the client's own bound did not). */
  hung: number;
  /** Answers that were not this call's (another call's text, a wrong tool count). */
  wrong: number;
}

const codeOf = (error: unknown) =>
  error instanceof LocalError || error instanceof ProtocolError
    ? String(error.code)
    : error instanceof Error
      ? error.name
      : 'unknown';

/** Runs `workers` loops over `clients` (worker i uses client i mod count) for `durationMs`. */
export async function driveLoad(
  clients: readonly McpClient[],
  workers: number,
  durationMs: number,
  tools: number,
): Promise<LoadCounts & { seconds: number }> {
  const counts: LoadCounts = { requests: 0, errors: {}, missing: 0, hung: 0, wrong: 0 };
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async (i: number) => {
    const client = clients[i % clients.length] as McpClient;
    for (let n = 0; performance.now() < deadline; n++) {
      counts.requests++;
      try {
        if (n % LIST_EVERY === LIST_EVERY - 1) {
          const listed = await within(
            client.listTools(undefined, { timeoutMs: SOAK_CALL_TIMEOUT_MS }),
            WATCHDOG_MS,
            'tools/list',
          );
          if (listed.tools.length !== tools) counts.wrong++;
        } else {
          const text = `worker ${i} call ${n}`;
          const result = await within(
            client.callTool('echo', { text }, { timeoutMs: SOAK_CALL_TIMEOUT_MS }),
            WATCHDOG_MS,
            'echo',
          );
          const answer = result.content[0];
          if (answer?.type !== 'text' || answer.text !== text) counts.wrong++;
        }
      } catch (error) {
        const code = error instanceof Unanswered ? 'HUNG' : codeOf(error);
        counts.errors[code] = (counts.errors[code] ?? 0) + 1;
        if (code === 'HUNG') counts.hung++;
        if (code === 'HUNG' || code === 'REQUEST_TIMEOUT') counts.missing++;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
  return { ...counts, seconds: (performance.now() - start) / 1000 };
}
