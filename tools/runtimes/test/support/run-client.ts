/** Runs `clients/cli.js` on a runtime and reads the one JSON line it prints. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childExit } from '../../../../config/test-support/processes.ts';
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
  const { status, stdout, stderr } = await childExit(child);
  const line = stdout.trim().split('\n').at(-1) ?? '';
  try {
    const parsed = JSON.parse(line) as TourReport | { error: string };
    return 'error' in parsed ? { ...parsed, stderr } : parsed;
  } catch {
    return { error: `exit ${status}, stdout ${JSON.stringify(stdout)}`, stderr };
  }
}
