import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RECORDER = fileURLToPath(new URL('./fixtures/imports/record-resolves.mjs', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The module URLs a fresh Node resolves when it imports `entries` from the built packages. */
function urlsLoadedBy(entries: readonly string[]): string[] {
  const code = `for (const e of ${JSON.stringify(entries)}) await import(e);`;
  const run = spawnSync(
    process.execPath,
    ['--import', RECORDER, '--input-type=module', '-e', code],
    { cwd: PACKAGE_DIR, encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  const lines = run.stderr.split('\n').filter((line) => line.startsWith('resolved '));
  return lines.map((line) => line.slice('resolved '.length));
}

/** The packages a fresh Node loads when it imports `entries` from the built packages. */
function packagesLoadedBy(entries: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urlsLoadedBy(entries)) {
    const installed = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    // In this workspace the twofold packages resolve to their own folders.
    const workspace = /\/packages\/([^/]+)\/dist\//.exec(url);
    if (installed) names.add(installed[1] as string);
    else if (workspace) names.add(`@twofold/${workspace[1]}`);
  }
  return names;
}

/** The files of a twofold package's `dist` that the import of `entries` loads, sorted. */
function distFilesLoadedBy(entries: readonly string[], pkg: string): string[] {
  const files = new Set<string>();
  for (const url of urlsLoadedBy(entries)) {
    const file = new RegExp(`/packages/${pkg}/dist/([^/]+)$`).exec(url)?.[1];
    if (file !== undefined) files.add(file);
  }
  return [...files].sort();
}

const CLIENT = ['@twofold/client/experimental', '@twofold/client/node'];
const SERVER = ['@twofold/server/experimental', '@twofold/server/node'];

describe('what importing the client and the server costs', () => {
  it.each([
    ['client', CLIENT],
    ['server', SERVER],
  ])(
    'the %s never loads zod: the wire is compiled, user schemas convert themselves',
    (_, entries) => {
      const loaded = packagesLoadedBy(entries);
      // The recorder works: the protocol package is always there.
      expect(loaded).toContain('@twofold/protocol');
      expect(loaded).not.toContain('zod');
    },
  );

  it('leaves the OAuth libraries and cross-spawn unloaded until a program needs them', () => {
    const loaded = packagesLoadedBy(CLIENT);
    expect(loaded).toContain('@twofold/protocol');
    expect(loaded).not.toContain('jose');
    expect(loaded).not.toContain('oauth4webapi');
    if (process.platform !== 'win32') expect(loaded).not.toContain('cross-spawn');
  });

  it.each([
    ['client', CLIENT],
    ['server', SERVER],
  ])('the %s loads the libraries built into the packages from their own files', (_, entries) => {
    const loaded = packagesLoadedBy(entries);
    expect(loaded).toContain('@twofold/protocol');
    expect(loaded).not.toContain('js-yaml');
    expect(loaded).not.toContain('@cfworker/json-schema');
  });

  it('a stdio server loads its two entries and the core they share, and no HTTP server code', () => {
    // ./node takes the core from ./experimental, and both the helpers ./experimental shares with
    // ./http without exporting them from the unexported `shared` hub.
    expect(distFilesLoadedBy(SERVER, 'server')).toEqual([
      'experimental.js',
      'node.js',
      'shared.js',
    ]);
    // The stdio transport comes from ./stdio, which takes the framer from ./experimental.
    expect(distFilesLoadedBy(SERVER, 'transports')).toEqual(['experimental.js', 'stdio.js']);
  });

  it.each([
    ['client', CLIENT],
    ['server', SERVER],
  ])("the %s leaves the YAML parser (the protocol's ./skills) unloaded", (_, entries) => {
    expect(distFilesLoadedBy(entries, 'protocol')).toEqual(['experimental.js']);
  });

  it('a stdio server loads neither node:http nor node:child_process: it neither serves HTTP nor spawns', () => {
    const code = `for (const e of ${JSON.stringify(SERVER)}) await import(e);
      const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule '));
      console.log(JSON.stringify(builtins.map((m) => m.slice('NativeModule '.length))));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: PACKAGE_DIR,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const builtins: string[] = JSON.parse(run.stdout);
    // The listing works: what Node loads for itself is in it.
    expect(builtins).toContain('fs');
    expect(builtins).not.toContain('http');
    expect(builtins).not.toContain('child_process');
  });
});
