#!/usr/bin/env node
/**
 * `pnpm release [--dry-run [--skip-tests]]`: every test, `changeset version`, build, then
 * `changeset publish`. `--skip-tests` (dry runs only) is for CI, which has just run the tests.
 *
 * A real release runs in this checkout and leaves the version bumps, changelogs and git tags for
 * the maintainer to commit and push. A dry run works on a temporary copy of the checkout (tracked
 * and untracked, not ignored, files, so pending changesets come along; `../shared` linked beside
 * it) with its own install: it tests, versions and builds that copy, runs `pnpm publish --dry-run`
 * for every package (packing only), and deletes the copy. The checkout is never touched, so no version bump, tag or push is
 * left behind, and a build of other work in the checkout is not disturbed.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = fileURLToPath(new URL('..', import.meta.url));
const dryRun = process.argv.includes('--dry-run');
const skipTests = process.argv.includes('--skip-tests');

/** Runs `command` in `cwd` with the output shown; stops the release when it fails. */
function run(cwd, [command, ...args]) {
  console.log(`\n> ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`"${[command, ...args].join(' ')}" failed (${result.status ?? result.signal})`);
  }
}

/** pnpm as it started this script (`pnpm release`), else the version the repository pins. */
function pnpm(...args) {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: a script of its own, not a turbo task
  const execPath = process.env.npm_execpath;
  if (execPath?.includes('pnpm')) return [process.execPath, execPath, ...args];
  const { packageManager } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'));
  return ['npx', '-y', packageManager, ...args];
}

/** Tracked and untracked files of the checkout, without what `.gitignore` leaves out. */
function checkoutFiles() {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: checkout, encoding: 'utf8' },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  // A file deleted but not yet committed is still listed by --cached.
  return listed.stdout.split('\0').filter((file) => file && existsSync(join(checkout, file)));
}

/**
 * Tests run before `changeset version`: they check the pending changesets, which versioning
 * consumes. The build after versioning puts the new version numbers into `dist/`.
 */
function testVersionBuild(dir) {
  if (!skipTests) run(dir, pnpm('test'));
  run(dir, pnpm('changeset', 'version'));
  run(dir, pnpm('turbo', 'run', 'build', '--output-logs=errors-only'));
}

function dryRelease() {
  const workspace = mkdtempSync(join(tmpdir(), 'twofold-release-'));
  const copy = join(workspace, 'main');
  console.log(`dry run in a copy of the checkout: ${copy}`);
  try {
    for (const file of checkoutFiles()) cpSync(join(checkout, file), join(copy, file));
    // Tests read the official spec from ../shared beside the checkout: the copy has it too.
    const shared = join(checkout, '..', 'shared');
    if (existsSync(shared)) symlinkSync(shared, join(workspace, 'shared'), 'dir');
    run(copy, pnpm('install', '--prefer-offline'));
    testVersionBuild(copy);
    run(copy, pnpm('-r', '--filter', './packages/*', 'publish', '--dry-run', '--no-git-checks'));
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
  console.log('\ndry run done: nothing was published, the checkout is as it was');
}

function release() {
  testVersionBuild(checkout);
  run(checkout, pnpm('changeset', 'publish'));
  console.log('\npublished: commit the version bumps and push with "git push --follow-tags"');
}

try {
  if (skipTests && !dryRun) throw new Error('--skip-tests is for dry runs only: a release tests');
  if (dryRun) dryRelease();
  else release();
} catch (error) {
  console.error(`release stopped: ${error.message}`);
  process.exitCode = 1;
}
