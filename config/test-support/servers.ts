/**
 * How the packages' tests start the everything servers on stdio (test-only; imported by relative
 * path). `from` is the caller's `import.meta.url`: tsx and
 * `@modelcontextprotocol/server-everything` are resolved from the package that depends on them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A command line: the program and its arguments. */
export interface Launch {
  command: string;
  args: string[];
}

const EVERYTHING_MAIN = fileURLToPath(
  new URL('../../apps/everything-server/src/main.ts', import.meta.url),
);

/** The `--import` value that runs TypeScript with tsx. */
export function tsxLoader(from: string | URL): string {
  return pathToFileURL(createRequire(from).resolve('tsx')).href;
}

/** twofold's everything server (apps/everything-server) on stdio, run from source with tsx. */
export function twofoldEverythingLaunch(from: string | URL): Launch {
  return {
    command: process.execPath,
    args: ['--import', tsxLoader(from), EVERYTHING_MAIN, '--stdio'],
  };
}

/** The installed `@modelcontextprotocol/server-everything` (a legacy server) on stdio, no npx. */
export function referenceEverythingLaunch(from: string | URL): Launch {
  const require = createRequire(from);
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = require(manifest) as { bin: Record<string, string> | string };
  const entry = typeof bin === 'string' ? bin : bin['mcp-server-everything'];
  if (entry === undefined) throw new Error('server-everything has no mcp-server-everything bin');
  return { command: process.execPath, args: [join(dirname(manifest), entry), 'stdio'] };
}
