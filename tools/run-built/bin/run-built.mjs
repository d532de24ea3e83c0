// Builds a program's workspace dependencies with turbo, showing turbo's output only when the
// build fails, then runs the program with the caller's arguments and stdio. This is what the
// root's `pnpm twofold …` runs: a root script would make pnpm print its banner on stdout,
// which breaks `--json`.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** How each program is built and started, relative to the repository root. */
const PROGRAMS = {
  twofold: { filter: '@twofold/cli...', script: 'packages/cli/dist/bin.js' },
  'everything-server': { filter: '@twofold/everything-server...', tsx: 'apps/everything-server' },
  'everything-client': { filter: '@twofold/everything-client...', tsx: 'apps/everything-client' },
};

function build(filter) {
  const turbo = createRequire(join(root, 'package.json')).resolve('turbo/bin/turbo');
  const result = spawnSync(
    process.execPath,
    [turbo, 'run', 'build', `--filter=${filter}`, '--output-logs=errors-only'],
    { cwd: root, encoding: 'utf8', env: { TURBO_TELEMETRY_DISABLED: '1', ...process.env } },
  );
  if (result.status === 0) return;
  process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  process.stderr.write(`the build for ${filter} failed\n`);
  process.exit(result.status ?? 1);
}

function command(program) {
  if (program.script) return [join(root, program.script)];
  const app = join(root, program.tsx);
  const tsx = createRequire(join(app, 'package.json')).resolve('tsx/cli');
  return [tsx, join(app, 'src', 'main.ts')];
}

/** Builds then runs `name` with `args`, exiting as the program does. */
export function runBuilt(name, args) {
  const program = PROGRAMS[name];
  build(program.filter);
  const child = spawn(process.execPath, [...command(program), ...args], { stdio: 'inherit' });
  // The terminal sends signals to the whole group; a `kill` aimed at this process is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
