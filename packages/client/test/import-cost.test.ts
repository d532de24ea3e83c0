import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RECORDER = fileURLToPath(new URL('./fixtures/imports/record-resolves.mjs', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The packages a fresh Node loads when it imports `entries` from the built client. */
function packagesLoadedBy(entries: readonly string[]): Set<string> {
  const code = `for (const e of ${JSON.stringify(entries)}) await import(e);`;
  const run = spawnSync(
    process.execPath,
    ['--import', RECORDER, '--input-type=module', '-e', code],
    { cwd: PACKAGE_DIR, encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  const names = new Set<string>();
  for (const line of run.stderr.split('\n')) {
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (line.startsWith('resolved ') && match) names.add(match[1] as string);
  }
  return names;
}

describe('what importing the client costs', () => {
  it('leaves the OAuth libraries and cross-spawn unloaded until a program needs them', () => {
    const loaded = packagesLoadedBy(['@twofold/client/experimental', '@twofold/client/node']);
    // The recorder works: the wire schemas' library is always there.
    expect(loaded).toContain('zod');
    expect(loaded).not.toContain('jose');
    expect(loaded).not.toContain('oauth4webapi');
    if (process.platform !== 'win32') expect(loaded).not.toContain('cross-spawn');
  });

  it('loads the libraries built into the packages from their own files', () => {
    const loaded = packagesLoadedBy(['@twofold/client/experimental', '@twofold/client/node']);
    expect(loaded).toContain('zod');
    expect(loaded).not.toContain('yaml');
    expect(loaded).not.toContain('@cfworker/json-schema');
  });
});
