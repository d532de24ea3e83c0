/**
 * `twofold config` editing a real mcp.json (literal secrets refused, `show` redacting), a
 * `--server` target read from it, and what later runs remember: the era verdict (no second
 * probe) and results the server allowed to cache (`ttlMs`), bypassed by `--no-cache`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, freshCache, jsonOf, referenceStdio, twofold } from './support';

/** The requests a run sent, from its --verbose trace. */
function sent(stderr: string): string[] {
  return [...stderr.matchAll(/^→\d+ (\{.*\})$/gm)].map(
    (m) => JSON.parse(m[1] as string).method as string,
  );
}

describe('twofold config', { timeout: 30_000 }, () => {
  it('adds, lists, shows, disables, enables and removes servers of an mcp.json', async () => {
    const config = join(freshCache(), 'mcp.json');
    const run = (...args: string[]) => twofold(['--config', config, ...args]);
    expect((await run('config', 'add', 'demo', '--', ...DEMO)).code).toBe(0);
    const header = ['--header', `Authorization: Bearer $${'{'}env:SEARCH_TOKEN}`];
    expect(
      (await run('config', 'add', 'search', '--url', 'https://search.example.com/mcp', ...header))
        .code,
    ).toBe(0);
    const listed = jsonOf(await run('config', 'list', '--json'));
    expect(listed.servers).toEqual([
      { name: 'demo', type: 'stdio', enabled: true, target: DEMO.join(' ') },
      { name: 'search', type: 'http', enabled: true, target: 'https://search.example.com/mcp' },
    ]);
    expect((await run('config', 'disable', 'search')).code).toBe(0);
    const file = JSON.parse(await readFile(config, 'utf8'));
    expect(file.mcpServers.search).toEqual({
      url: 'https://search.example.com/mcp',
      headers: { Authorization: `Bearer $${'{'}env:SEARCH_TOKEN}` },
      enabled: false,
    });
    expect((await run('config', 'enable', 'search')).code).toBe(0);
    expect((await run('config', 'remove', 'search')).code).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(config, 'utf8')).mcpServers)).toEqual(['demo']);
    const tools = jsonOf(await run('tools', 'list', '--server', 'demo', '--json'));
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toContain('add');
  });

  it('refuses a literal secret (78) and shows entries with secrets redacted', async () => {
    const config = join(freshCache(), 'mcp.json');
    const literal = await twofold([
      'config',
      'add',
      'gh',
      '--env',
      'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ',
      '--config',
      config,
      '--',
      'npx',
      'server-github',
    ]);
    expect(literal.code).toBe(78);
    expect(literal.stderr).toContain('mcpServers.gh.env.GITHUB_TOKEN');
    expect(literal.stderr).not.toContain('ghp_0123456789');
    // A file written by hand may still hold one: show masks it.
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { db: { url: 'https://u:hunter2@db.example/mcp' } } }),
    );
    const shown = await twofold(['config', 'show', 'db', '--config', config]);
    expect(shown.stdout).not.toContain('hunter2');
    expect(shown.stdout).toContain('***');
  });
});

describe.each([
  ['VS Code', 'servers'],
  ['mcpServers', 'mcpServers'],
])('twofold config on a hand-written JSONC file (%s shape)', (_shape, key) => {
  const handWritten = [
    '// servers this project uses',
    '{',
    `  "${key}": {`,
    '    /* the local demo */',
    '    "demo": { "command": "node", "args": ["demo.js"] },',
    '  },',
    '}',
    '',
  ].join('\n');

  it('lists its servers, and add / remove keep its comments and its key', async () => {
    const config = join(freshCache(), 'mcp.json');
    await writeFile(config, handWritten);
    const run = (...args: string[]) => twofold(['--config', config, ...args]);
    const listed = jsonOf(await run('config', 'list', '--json'));
    expect(listed.servers).toEqual([
      { name: 'demo', type: 'stdio', enabled: true, target: 'node demo.js' },
    ]);
    const added = await run('config', 'add', 'search', '--url', 'https://search.example.com/mcp');
    expect(added.code).toBe(0);
    const afterAdd = await readFile(config, 'utf8');
    expect(afterAdd).toContain('// servers this project uses');
    expect(afterAdd).toContain('/* the local demo */');
    const names = jsonOf(await run('config', 'list', '--json')).servers as { name: string }[];
    expect(names.map((s) => s.name)).toEqual(['demo', 'search']);
    expect((await run('config', 'remove', 'demo')).code).toBe(0);
    const afterRemove = await readFile(config, 'utf8');
    expect(afterRemove).toContain('// servers this project uses');
    expect(afterRemove).toContain(`"${key}"`);
    expect(afterRemove).not.toContain(key === 'servers' ? '"mcpServers"' : '"servers"');
    const shown = jsonOf(await run('config', 'show', 'search', '--json'));
    expect(shown.entry).toEqual({ url: 'https://search.example.com/mcp' });
  });
});

describe('what later runs remember', { timeout: 30_000 }, () => {
  it('the era verdict: a legacy server is not probed again', async () => {
    const env = { TWOFOLD_CACHE_DIR: freshCache() };
    const first = await twofold(['tools', 'list', '--verbose', '--', ...referenceStdio()], { env });
    expect(sent(first.stderr).slice(0, 2)).toEqual(['server/discover', 'initialize']);
    const second = await twofold(['tools', 'list', '--verbose', '--', ...referenceStdio()], {
      env,
    });
    expect(sent(second.stderr)[0]).toBe('initialize');
    expect(sent(second.stderr)).not.toContain('server/discover');
  });

  it('cacheable results (ttlMs) are reused until stale, unless --no-cache', async () => {
    const env = { TWOFOLD_CACHE_DIR: freshCache() };
    const first = await twofold(['tools', 'list', '--verbose', '--', ...DEMO], { env });
    expect(sent(first.stderr)).toEqual(['server/discover', 'tools/list']);
    const second = await twofold(['tools', 'list', '--verbose', '--', ...DEMO], { env });
    // The demo server allows a minute: neither the discover result nor the list is asked again.
    expect(sent(second.stderr)).toEqual([]);
    expect(second.stdout).toBe(first.stdout);
    const bypass = await twofold(['tools', 'list', '--verbose', '--no-cache', '--', ...DEMO], {
      env,
    });
    expect(sent(bypass.stderr)).toEqual(['server/discover', 'tools/list']);
  });

  it('what is remembered holds no argument or credential of the command line', async () => {
    const dir = freshCache();
    const run = await twofold(
      ['tools', 'list', '--env', 'API_TOKEN=s3cret-env', '--', ...DEMO, '--token=s3cret-arg'],
      {
        env: { TWOFOLD_CACHE_DIR: dir },
      },
    );
    expect(run.code).toBe(0);
    const files = await Promise.all(
      ['verdicts.json', 'results.json'].map((f) => readFile(join(dir, f), 'utf8')),
    );
    expect(files[1]).toContain('"tools"');
    for (const text of files) {
      expect(text).not.toContain('s3cret');
      expect(text).not.toContain('demo-server');
    }
  });

  it('--verbose masks secret-named values in the trace', async () => {
    const run = await twofold([
      'tools',
      'call',
      'add',
      '--args',
      '{"a":1,"b":2,"api_key":"s3cr3t-value"}',
      '--verbose',
      '--no-cache',
      '--',
      ...DEMO,
    ]);
    expect(run.stderr).toContain('"api_key":"***"');
    expect(run.stderr).not.toContain('s3cr3t-value');
  });
});
