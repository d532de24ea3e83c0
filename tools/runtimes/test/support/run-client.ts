/** Runs `clients/cli.js` on a runtime and reads the one JSON line it prints. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { TourReport, TourRun } from './peers';

const clientsDir = fileURLToPath(new URL('../../clients/', import.meta.url));

/** What a runtime's client run printed: its report, or the error it failed with. */
export type ClientOutcome = TourReport | { error: string; stderr: string };

/** Runs `command ...args cli.js <run>` in `clients/` and resolves once it has exited. */
export async function runClient(
  command: string,
  args: string[],
  run: TourRun,
): Promise<ClientOutcome> {
  const child = spawn(command, [...args, 'cli.js', JSON.stringify(run)], {
    cwd: clientsDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'close')) as [number | null];
  const line = stdout.trim().split('\n').at(-1) ?? '';
  try {
    const parsed = JSON.parse(line) as TourReport | { error: string };
    return 'error' in parsed ? { ...parsed, stderr } : parsed;
  } catch {
    return { error: `exit ${code}, stdout ${JSON.stringify(stdout)}`, stderr };
  }
}
