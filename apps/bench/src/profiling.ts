/**
 * `--profile <rows>`: V8 CPU profiles of the processes of some rows. Child processes of a
 * profiled row get `--cpu-prof --cpu-prof-dir <dir>/<row>/<role>` (the profile is written when
 * the process exits); work the row does in the bench's own process (the raw HTTP load) is
 * profiled per turn through `node:inspector`. Set once by `main.ts`, read where processes start.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative } from 'node:path';

/** Which rows (implementation names as the tables print them) to profile, and where to. */
export interface ProfilePlan {
  rows: readonly string[];
  dir: string;
}

let plan: ProfilePlan | undefined;
let session: Session | undefined;
let turns = 0;

/** Turns profiling on for the rest of the run, or off (`undefined`). */
export function configureProfiling(next: ProfilePlan | undefined): void {
  plan = next;
  if (!next) {
    session?.disconnect();
    session = undefined;
  }
}

/** The rows being profiled (empty when profiling is off). */
export function profiledRows(): readonly string[] {
  return plan?.rows ?? [];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-|-$/g, '');

/** The directory of one row's profiles of one role (created). */
function roleDir(row: string, role: string): string {
  const dir = join(plan?.dir ?? '', slug(row), role);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Node options for a child process playing `role` (e.g. `stdio-server`) for `row`: the CPU
 * profiler's when that row is profiled, none otherwise.
 */
export function profileNodeArgs(row: string, role: string): string[] {
  if (!plan?.rows.includes(row)) return [];
  return ['--cpu-prof', '--cpu-prof-dir', roleDir(row, role)];
}

/**
 * Runs `work` for `row`; when that row is profiled, under the in-process CPU profiler, written
 * to `<dir>/<row>/<role>/<label>-<n>.cpuprofile`.
 */
export async function profiledInProcess<T>(
  row: string,
  role: string,
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  if (!plan?.rows.includes(row)) return work();
  const dir = roleDir(row, role);
  if (!session) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
  }
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    turns += 1;
    writeFileSync(join(dir, `${slug(label)}-${turns}.cpuprofile`), JSON.stringify(profile));
  }
}

/** Every `.cpuprofile` under `dir` with its size, paths relative to `dir`. */
export function listProfiles(dir: string): { path: string; bytes: number }[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => ({
      path: relative(dir, join(dir, name)),
      bytes: statSync(join(dir, name)).size,
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
