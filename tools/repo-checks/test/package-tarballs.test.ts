// What `pnpm release` would upload: every package packed the way `pnpm publish` packs it, and its
// tarball listed. It ships LICENSE, README.md and every file its package.json points at, and
// none of its sources or tests. turbo builds the packages before this test (devDependencies).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPackages, repoRoot } from '../src/workspace.ts';

const packed = mkdtempSync(join(tmpdir(), 'twofold-pack-'));
afterAll(() => rmSync(packed, { recursive: true, force: true }));

/** pnpm as it runs these tests (`pnpm test`), else the version the repository pins. */
function pnpm(args: string[], cwd: string): string {
  const execPath = process.env.npm_execpath;
  if (execPath?.includes('pnpm')) {
    return execFileSync(process.execPath, [execPath, ...args], { cwd, encoding: 'utf8' });
  }
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  return execFileSync('npx', ['-y', root.packageManager, ...args], { cwd, encoding: 'utf8' });
}

/** Every file path a package.json field points at (`exports`, `main`, `types`, `bin`, …). */
function pointedAt(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('./') ? [value.slice(2)] : [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(pointedAt);
}

describe('package tarballs', () => {
  // One pnpm run packs them all: starting pnpm is most of the time a pack takes.
  beforeAll(() => {
    pnpm(['-r', '--filter', './packages/*', 'pack', '--pack-destination', packed], repoRoot);
  }, 120_000);

  for (const { json } of publishedPackages()) {
    it(`${json.name} packs LICENSE, README.md and its entries, no sources or tests`, () => {
      const tarball = `${json.name.replace('@', '').replace('/', '-')}-${json.version}.tgz`;
      const files = execFileSync('tar', ['-tzf', join(packed, tarball)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((file) => file.replace(/^package\//, ''));
      const { exports, main, module, types, bin } = json;
      const entries = pointedAt({ exports, main, module, types, bin });
      expect(entries.length).toBeGreaterThan(0);
      expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', ...entries]));
      expect(files.filter((file) => /^(src|test)\//.test(file))).toEqual([]);
    });
  }
});
