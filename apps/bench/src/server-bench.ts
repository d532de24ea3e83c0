/**
 * The server benchmark: twofold's server beside the official SDK 2.4.0 over modern HTTP (a
 * 50-tool server, concurrency 1 and 16) and over stdio (sequential round trips).
 */
import { benchHttp } from './server-http';
import { SERVER_TABLE_HEADER } from './server-stats';
import { benchStdio } from './server-stdio';

/**
 * Runs the server benchmark and returns a Markdown table; `quick` keeps it under about a
 * minute.
 */
export async function runServerBench(quick: boolean): Promise<string> {
  const http = await benchHttp(
    quick
      ? { rounds: 3, counts: { 1: 200, 16: 600 } }
      : { rounds: 7, counts: { 1: 2000, 16: 4000 } },
  );
  const stdio = await benchStdio(quick ? { rounds: 3, count: 500 } : { rounds: 7, count: 3000 });
  return [...SERVER_TABLE_HEADER, ...http, ...stdio].join('\n');
}
