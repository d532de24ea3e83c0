// Loads every package's built root entry the way users will, as ESM and as CJS, and checks the
// version injected at build time. turbo builds the packages before this test (devDependencies).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages } from '../src/workspace.ts';

interface RootEntry {
  version: string;
  experimentalEntry: string;
}

const require = createRequire(import.meta.url);

describe('built root entries', () => {
  for (const { json } of publishedPackages()) {
    it(`${json.name} loads as ESM and CJS with its version`, async () => {
      const expected = { version: json.version, experimentalEntry: `${json.name}/experimental` };
      const esm = (await import(json.name)) as RootEntry;
      const cjs = require(json.name) as RootEntry;
      expect({ version: esm.version, experimentalEntry: esm.experimentalEntry }).toEqual(expected);
      expect({ version: cjs.version, experimentalEntry: cjs.experimentalEntry }).toEqual(expected);
      expect(require.resolve(`${json.name}/experimental`)).toMatch(/experimental\.cjs$/);
    });
  }
});

// The Node entries load both ways too. The `/stdio` entries (the server's a deprecated alias,
// the transports' the stdio part alone) give names of `/node`; as ESM they are the very same
// values (CJS bundles each entry apart).
describe('built Node entries', () => {
  const withEntry = (subpath: string) =>
    publishedPackages().filter(({ json }) => json.exports?.[subpath] !== undefined);

  for (const { json } of withEntry('./node')) {
    it(`${json.name}/node loads as ESM and CJS with the same exports`, async () => {
      const esm = (await import(`${json.name}/node`)) as Record<string, unknown>;
      const cjs = require(`${json.name}/node`) as Record<string, unknown>;
      expect(Object.keys(esm).length).toBeGreaterThan(0);
      expect(Object.keys(cjs).sort()).toEqual(Object.keys(esm).sort());
    });
  }

  for (const { json } of withEntry('./stdio')) {
    it(`${json.name}/stdio gives what ${json.name}/node gives`, async () => {
      const node = new Map(Object.entries(await import(`${json.name}/node`)));
      const stdio = Object.entries((await import(`${json.name}/stdio`)) as object);
      expect(stdio.length).toBeGreaterThan(0);
      for (const [name, value] of stdio) expect(value, name).toBe(node.get(name));
      const cjsNames = Object.keys(require(`${json.name}/node`) as object);
      expect(cjsNames).toEqual(expect.arrayContaining(Object.keys(require(`${json.name}/stdio`))));
    });
  }
});

// Every package keeps one copy of each class in CommonJS too (the hubs see to it where entries
// share code): a class two CJS files both define is one `instanceof` and one module state that
// entries no longer share.
describe('built CommonJS files', () => {
  /** Each class name a package's CJS files define, with the files that define it. */
  const classFiles = (path: string) => {
    const dist = join(path, 'dist');
    const definedIn = new Map<string, string[]>();
    for (const file of readdirSync(dist).filter((name) => name.endsWith('.cjs'))) {
      const text = readFileSync(join(dist, file), 'utf8');
      // The bundler names a second copy with a number (`McpConfigError2`): count it as the same.
      for (const [, name] of text.matchAll(/^var (\w+?)\d* = class\b/gm)) {
        definedIn.set(name as string, [...(definedIn.get(name as string) ?? []), file]);
      }
    }
    return definedIn;
  };
  const packages = publishedPackages();

  it('are scanned for classes the way the build writes them', () => {
    const server = packages.find(({ dir }) => dir === 'server');
    expect(classFiles(server?.path ?? '').get('McpServer')).toEqual(['experimental.cjs']);
  });
  for (const pkg of packages) {
    it(`${pkg.json.name} defines each class in one CJS file`, () => {
      const twice = [...classFiles(pkg.path)].filter(([, files]) => files.length > 1);
      expect(Object.fromEntries(twice)).toEqual({});
    });
  }
});

// A CommonJS program gets CommonJS all the way down: `serveHttp` loads its HTTP code lazily, and
// the entries share one copy of each class (a second copy of `Reply` made every answer a 500).
describe('a CommonJS program', () => {
  it('serves over HTTP with serveHttp and is answered by a CommonJS client', async () => {
    const { McpServer } =
      require('@twofold/server/experimental') as typeof import('@twofold/server/experimental');
    const { serveHttp } = require('@twofold/server/node') as typeof import('@twofold/server/node');
    const { McpClient } =
      require('@twofold/client/experimental') as typeof import('@twofold/client/experimental');
    const { httpServer } = require('@twofold/client/node') as typeof import('@twofold/client/node');
    // A key of its own keeps the endpoint from warning about a random one.
    const key = 'a key for this test only, 32 bytes or more';
    const server = new McpServer({ name: 'cjs', version: '1.0.0', requestState: { key } });
    server.registerTool({
      name: 'ping',
      description: 'Answers pong',
      inputSchema: { type: 'object' },
      handler: () => 'pong',
    });
    const failures: Error[] = [];
    const endpoint = await serveHttp(server, { onerror: (error) => failures.push(error) });
    try {
      const client = await McpClient.connect(httpServer({ url: endpoint.url }), {
        clientInfo: { name: 'cjs-client', version: '1.0.0' },
      });
      const result = await client.callTool('ping', {});
      await client.close();
      expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
      expect(failures).toEqual([]);
    } finally {
      await endpoint.close();
    }
  });
});

// The registry adapter's ./node reads mcp.json through modules ./experimental does not export
// whole; its CommonJS build once defined a second McpConfigError there.
describe('a CommonJS program using the registry adapter', () => {
  it('catches the errors of ./node with the classes of ./experimental', async () => {
    const { McpConfigError } =
      require('@twofold/registry-adapter/experimental') as typeof import('@twofold/registry-adapter/experimental');
    const { readMcpConfigFile } =
      require('@twofold/registry-adapter/node') as typeof import('@twofold/registry-adapter/node');
    const dir = mkdtempSync(join(tmpdir(), 'twofold-cjs-'));
    try {
      const file = join(dir, 'mcp.json');
      writeFileSync(file, '{ "mcpServers": ');
      const failure = await readMcpConfigFile(file).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(McpConfigError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
