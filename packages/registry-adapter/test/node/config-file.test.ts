/**
 * mcp.json on disk, in real temp directories: reading with clear errors, atomic validated writes
 * (no temp file left, permissions kept, symlinks written through), serialised updates.
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpConfigError } from '../../src/config/errors';
import {
  readMcpConfigFile,
  updateMcpConfigFile,
  writeMcpConfigFile,
} from '../../src/node/config-file';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'twofold-config-'));
  file = join(dir, 'mcp.json');
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const posixOnly = it.skipIf(process.platform === 'win32');

async function rejection(promise: Promise<unknown>): Promise<McpConfigError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpConfigError);
  return error as McpConfigError;
}

const mode = async (path: string) => (await fs.stat(path)).mode & 0o777;

describe('readMcpConfigFile', () => {
  it('returns the raw document and the config with defaults', async () => {
    await fs.writeFile(file, '{ "mcpServers": { "fs": { "command": "npx" } } }');
    const { raw, config } = await readMcpConfigFile(file);
    expect(raw).toEqual({ mcpServers: { fs: { command: 'npx' } } });
    expect(config.mcpServers.fs).toMatchObject({ type: 'stdio', args: [], env: {} });
    expect(config.conflictPolicy).toBe('prefix-on-collision');
  });

  it('says a missing file does not exist, naming it', async () => {
    const error = await rejection(readMcpConfigFile(file));
    expect(error.file).toBe(file);
    expect(error.issues).toEqual([
      { path: '', message: `cannot read ${file}: the file does not exist` },
    ]);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('gives the line and column of bad JSON', async () => {
    await fs.writeFile(
      file,
      '{\n  "mcpServers": {\n    "fs": { "command": "npx" "args": [] }\n  }\n}\n',
    );
    const error = await rejection(readMcpConfigFile(file));
    expect(error.file).toBe(file);
    expect(error.message).toBe(
      `invalid MCP config ${file}: invalid JSON at line 3, column 30: expected "," or "}" (unexpected character "\\"")`,
    );
  });

  it('reports validation problems with the file', async () => {
    await fs.writeFile(file, '{ "mcpServers": { "fs": { "comand": "npx" } } }');
    const error = await rejection(readMcpConfigFile(file));
    expect(error.file).toBe(file);
    expect(error.issues.map((i) => i.path)).toEqual(['mcpServers.fs', 'mcpServers.fs.comand']);
  });

  it('reports a path that cannot be read as a file', async () => {
    const error = await rejection(readMcpConfigFile(dir));
    expect(error.issues[0]?.message).toMatch(new RegExp(`^cannot read ${escapeRegExp(dir)}: `));
  });
});

describe('writeMcpConfigFile', () => {
  it('writes 2-space JSON with a trailing newline and leaves no temp file', async () => {
    const raw = { mcpServers: { fs: { command: 'npx', args: ['-y', 'server'] } } };
    const written = await writeMcpConfigFile(file, raw);
    expect(await fs.readFile(file, 'utf8')).toBe(`${JSON.stringify(raw, null, 2)}\n`);
    expect(written.raw).toBe(raw);
    expect(written.config.mcpServers.fs?.type).toBe('stdio');
    expect(await fs.readdir(dir)).toEqual(['mcp.json']);
  });

  it('writes only what the document says, not the defaults', async () => {
    await writeMcpConfigFile(file, { mcpServers: { fs: { command: 'npx' } } });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({
      mcpServers: { fs: { command: 'npx' } },
    });
  });

  it('refuses an invalid document and leaves the file as it was', async () => {
    const before = '{ "mcpServers": {} }\n';
    await fs.writeFile(file, before);
    const error = await rejection(
      writeMcpConfigFile(file, {
        mcpServers: { gh: { command: 'x', env: { GITHUB_TOKEN: 'literal' } } },
      }),
    );
    expect(error.file).toBe(file);
    expect(error.issues[0]?.path).toBe('mcpServers.gh.env.GITHUB_TOKEN');
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(await fs.readdir(dir)).toEqual(['mcp.json']);
  });

  it('does not create a file for an invalid document', async () => {
    await rejection(writeMcpConfigFile(file, { mcpServers: { s: {} } }));
    expect(await fs.readdir(dir)).toEqual([]);
  });

  posixOnly(
    'keeps the permissions of an existing file, also those the umask would clear',
    async () => {
      for (const permissions of [0o600, 0o664, 0o640]) {
        await fs.writeFile(file, '{}');
        await fs.chmod(file, permissions);
        await writeMcpConfigFile(file, { mcpServers: {} });
        expect((await mode(file)).toString(8)).toBe(permissions.toString(8));
      }
    },
  );

  posixOnly('creates a new file readable and writable by its owner, not executable', async () => {
    await writeMcpConfigFile(file, { mcpServers: {} });
    const created = await mode(file);
    expect(created & 0o600).toBe(0o600);
    expect(created & 0o111).toBe(0);
  });

  posixOnly('writes through a symlink, keeping the link', async () => {
    const real = join(dir, 'real');
    await fs.mkdir(real);
    const target = join(real, 'mcp.json');
    await fs.writeFile(target, '{}');
    await fs.chmod(target, 0o600);
    const link = join(dir, 'link.json');
    await fs.symlink(target, link);

    await writeMcpConfigFile(link, { mcpServers: { fs: { command: 'npx' } } });
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect(await fs.readlink(link)).toBe(target);
    expect(JSON.parse(await fs.readFile(target, 'utf8'))).toEqual({
      mcpServers: { fs: { command: 'npx' } },
    });
    expect(await mode(target)).toBe(0o600);
    expect((await fs.readdir(real)).sort()).toEqual(['mcp.json']);
    expect((await fs.readdir(dir)).sort()).toEqual(['link.json', 'real']);
  });

  it('fails with the file system error when the directory does not exist', async () => {
    const missing = join(dir, 'nope', 'mcp.json');
    await expect(writeMcpConfigFile(missing, { mcpServers: {} })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

describe('updateMcpConfigFile', () => {
  it('starts from an empty config when the file does not exist', async () => {
    const seen: unknown[] = [];
    await updateMcpConfigFile(file, (raw) => {
      seen.push(structuredClone(raw));
      return { ...raw, mcpServers: { fs: { command: 'npx' } } };
    });
    expect(seen).toEqual([{ mcpServers: {} }]);
    expect((await readMcpConfigFile(file)).raw).toEqual({ mcpServers: { fs: { command: 'npx' } } });
  });

  it('hands the edit the raw document, keeping fields the user wrote', async () => {
    await fs.writeFile(
      file,
      '{ "$schema": "./s.json", "mcpServers": { "a": { "url": "https://x.example" } } }',
    );
    const result = await updateMcpConfigFile(file, async (raw) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { ...raw, mcpServers: { ...(raw.mcpServers as object), b: { command: 'x' } } };
    });
    expect(result.raw).toEqual({
      $schema: './s.json',
      mcpServers: { a: { url: 'https://x.example' }, b: { command: 'x' } },
    });
    expect(Object.keys(result.config.mcpServers)).toEqual(['a', 'b']);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(result.raw);
  });

  it('lets an edit repair a file that does not validate', async () => {
    await fs.writeFile(file, '{ "mcpServers": { "a": { "comand": "x" } } }');
    await updateMcpConfigFile(file, () => ({ mcpServers: { a: { command: 'x' } } }));
    expect((await readMcpConfigFile(file)).config.mcpServers.a?.type).toBe('stdio');
  });

  it('refuses bad JSON without calling the edit', async () => {
    await fs.writeFile(file, '{ "mcpServers": ');
    let called = false;
    const error = await rejection(
      updateMcpConfigFile(file, (raw) => {
        called = true;
        return raw;
      }),
    );
    expect(called).toBe(false);
    expect(error.message).toMatch(/invalid JSON at line 1, column 17/);
    expect(await fs.readFile(file, 'utf8')).toBe('{ "mcpServers": ');
  });

  it('leaves the file unchanged when the edit throws or returns an invalid document', async () => {
    const before = '{ "mcpServers": {} }';
    await fs.writeFile(file, before);
    await expect(
      updateMcpConfigFile(file, () => {
        throw new Error('edit failed');
      }),
    ).rejects.toThrow('edit failed');
    await rejection(updateMcpConfigFile(file, () => ({ mcpServers: { s: { url: 'ftp://x' } } })));
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(await fs.readdir(dir)).toEqual(['mcp.json']);
    // A failed update does not block the next one on the same path.
    await updateMcpConfigFile(file, () => ({ mcpServers: { ok: { command: 'x' } } }));
    expect(Object.keys((await readMcpConfigFile(file)).raw.mcpServers as object)).toEqual(['ok']);
  });

  it('serialises 20 concurrent adds on one path, losing none', async () => {
    const adds = Array.from({ length: 20 }, (_, i) =>
      updateMcpConfigFile(file, async (raw) => {
        // Yield between read and write, where an unserialised update would lose others.
        await new Promise((resolve) => setTimeout(resolve, 0));
        const current = raw.mcpServers as Record<string, unknown>;
        return { ...raw, mcpServers: { ...current, [`s${i}`]: { command: `cmd${i}` } } };
      }),
    );
    await Promise.all(adds);
    const { raw } = await readMcpConfigFile(file);
    const names = Object.keys(raw.mcpServers as object);
    // Call order is kept, so the servers were added in the order the calls were made.
    expect(names).toEqual(Array.from({ length: 20 }, (_, i) => `s${i}`));
    expect(await fs.readdir(dir)).toEqual(['mcp.json']);
  });

  it('serialises writes with updates, and relative with absolute paths', async () => {
    const order: string[] = [];
    const rel = relative(process.cwd(), file);
    const add = (path: string, name: string) =>
      updateMcpConfigFile(path, async (raw) => {
        order.push(name);
        await new Promise((resolve) => setTimeout(resolve, 2));
        return { mcpServers: { ...(raw.mcpServers as object), [name]: { command: name } } };
      });
    await Promise.all([
      add(file, 'a'),
      writeMcpConfigFile(rel, { mcpServers: { reset: { command: 'x' } } }),
      add(rel, 'b'),
      add(file, 'c'),
    ]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(Object.keys((await readMcpConfigFile(file)).raw.mcpServers as object)).toEqual([
      'reset',
      'b',
      'c',
    ]);
  });

  it('never lets a reader see a partial file while updates run', async () => {
    await fs.writeFile(file, '{ "mcpServers": {} }');
    let done = false;
    const updates = Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        updateMcpConfigFile(file, (raw) => ({
          mcpServers: { ...(raw.mcpServers as object), [`s${i}`]: { command: 'x'.repeat(2000) } },
        })),
      ),
    ).finally(() => {
      done = true;
    });
    let reads = 0;
    while (!done) {
      JSON.parse(await fs.readFile(file, 'utf8'));
      reads++;
    }
    await updates;
    expect(reads).toBeGreaterThan(0);
    expect(Object.keys((await readMcpConfigFile(file)).raw.mcpServers as object)).toHaveLength(10);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
