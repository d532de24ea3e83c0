// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:NAME}` references are the subject here
/** resolveSecrets (`${env:NAME}` just before start) and redactSecrets (safe display). */
import { describe, expect, it } from 'vitest';
import { parseServerEntry } from '../../src/config/parse';
import { redactSecrets, resolveSecrets } from '../../src/config/secrets';
import type { HttpServerEntry, StdioServerEntry } from '../../src/config/types';
import { configErrorOf } from './support';

const GHP = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

const stdio = (raw: Record<string, unknown>) => parseServerEntry('local', raw) as StdioServerEntry;
const http = (raw: Record<string, unknown>) => parseServerEntry('remote', raw) as HttpServerEntry;

describe('resolveSecrets: stdio entries', () => {
  const entry = stdio({
    command: 'node',
    args: ['--token', '${env:TOKEN}', '--out=${env:HOME_DIR}/${env:TOKEN}.log'],
    env: { GITHUB_TOKEN: '${env:TOKEN}', MIXED: 'a-${env:TOKEN}-b', PLAIN: 'x' },
    cwd: '${env:HOME_DIR}/work',
  });

  it('fills env, args and cwd, leaving the input unchanged', () => {
    const before = structuredClone(entry);
    const resolved = resolveSecrets(entry, { TOKEN: 't0k', HOME_DIR: '/home/me' }, 'local');
    expect(resolved).toEqual({
      ...entry,
      args: ['--token', 't0k', '--out=/home/me/t0k.log'],
      env: { GITHUB_TOKEN: 't0k', MIXED: 'a-t0k-b', PLAIN: 'x' },
      cwd: '/home/me/work',
    });
    expect(entry).toEqual(before);
  });

  it('does not touch command or expand a reference inside a value', () => {
    const e = stdio({ command: '${env:TOOL}', env: { A: '${env:B}', C: '$&$1' } });
    const resolved = resolveSecrets(e, {
      TOOL: 'x',
      B: '${env:SECRET}',
      SECRET: 'no',
    }) as StdioServerEntry;
    expect(resolved.command).toBe('${env:TOOL}');
    expect(resolved.env).toEqual({ A: '${env:SECRET}', C: '$&$1' });
  });

  it('inserts replacement-pattern characters of a value literally', () => {
    const e = stdio({ command: 'x', env: { A: '${env:V}' } });
    expect((resolveSecrets(e, { V: "$&$'$`" }) as StdioServerEntry).env.A).toBe("$&$'$`");
  });

  it('names the server, the field and the variable of every unset or empty variable', () => {
    const error = configErrorOf(() => resolveSecrets(entry, { HOME_DIR: '' }, 'local'));
    expect(error.issues).toEqual([
      {
        path: 'mcpServers.local.args[1]',
        message:
          'server "local": mcpServers.local.args[1] refers to ${env:TOKEN} but TOKEN is not set in the environment',
      },
      {
        path: 'mcpServers.local.args[2]',
        message:
          'server "local": mcpServers.local.args[2] refers to ${env:HOME_DIR} but HOME_DIR is empty in the environment',
      },
      {
        path: 'mcpServers.local.args[2]',
        message:
          'server "local": mcpServers.local.args[2] refers to ${env:TOKEN} but TOKEN is not set in the environment',
      },
      {
        path: 'mcpServers.local.env.GITHUB_TOKEN',
        message:
          'server "local": mcpServers.local.env.GITHUB_TOKEN refers to ${env:TOKEN} but TOKEN is not set in the environment',
      },
      {
        path: 'mcpServers.local.env.MIXED',
        message:
          'server "local": mcpServers.local.env.MIXED refers to ${env:TOKEN} but TOKEN is not set in the environment',
      },
      {
        path: 'mcpServers.local.cwd',
        message:
          'server "local": mcpServers.local.cwd refers to ${env:HOME_DIR} but HOME_DIR is empty in the environment',
      },
    ]);
    expect(error.message).toMatch(/^invalid MCP config \(6 problems\):/);
  });

  it('reads only own properties of env', () => {
    const e = stdio({ command: 'x', env: { A: '${env:constructor}' } });
    expect(configErrorOf(() => resolveSecrets(e, {})).issues[0]?.message).toBe(
      'server "server": mcpServers.server.env.A refers to ${env:constructor} but constructor is not set in the environment',
    );
  });

  it('never puts the value of another variable in an error', () => {
    const e = stdio({ command: 'x', env: { A: '${env:SET}', B: '${env:UNSET}' } });
    const error = configErrorOf(() => resolveSecrets(e, { SET: 'very-secret-value' }));
    expect(error.message).not.toContain('very-secret-value');
  });
});

describe('resolveSecrets: HTTP entries', () => {
  it('fills headers', () => {
    const e = http({
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${env:TOKEN}' },
    });
    expect((resolveSecrets(e, { TOKEN: 'abc' }) as HttpServerEntry).headers).toEqual({
      Authorization: 'Bearer abc',
    });
  });

  it('percent-encodes references in the userinfo and the query, not in host or path', () => {
    const e = http({
      url: 'https://${env:USER}:${env:PASS}@${env:HOST}/v/${env:SEG}?key=${env:KEY}&page=1',
    });
    const env = {
      USER: 'a@b',
      PASS: 'p:w/d?#',
      HOST: 'mcp.example.com:8443',
      SEG: 'x/y',
      KEY: 'a&b=c d',
    };
    const { url } = resolveSecrets(e, env) as HttpServerEntry;
    expect(url).toBe(
      'https://a%40b:p%3Aw%2Fd%3F%23@mcp.example.com:8443/v/x/y?key=a%26b%3Dc%20d&page=1',
    );
    const parsed = new URL(url);
    expect(decodeURIComponent(parsed.username)).toBe('a@b');
    expect(decodeURIComponent(parsed.password)).toBe('p:w/d?#');
    expect(parsed.searchParams.get('key')).toBe('a&b=c d');
    expect(parsed.searchParams.get('page')).toBe('1');
  });

  it('encodes a reference in the fragment too', () => {
    const { url } = resolveSecrets(http({ url: 'https://x.example/p#${env:F}' }), {
      F: 'a b',
    }) as HttpServerEntry;
    expect(url).toBe('https://x.example/p#a%20b');
  });

  it('inserts a whole-URL reference as is, then checks it is http(s)', () => {
    const e = http({ url: '${env:MCP_URL}' });
    const ok = resolveSecrets(
      e,
      { MCP_URL: 'https://x.example/mcp?a=1&b=2' },
      'remote',
    ) as HttpServerEntry;
    expect(ok.url).toBe('https://x.example/mcp?a=1&b=2');
    expect(
      configErrorOf(() => resolveSecrets(e, { MCP_URL: 'file:///etc/passwd' }, 'remote')).issues,
    ).toEqual([
      {
        path: 'mcpServers.remote.url',
        message:
          'server "remote": mcpServers.remote.url is not an http:// or https:// URL once its references are filled in',
      },
    ]);
  });

  it('reports an unset variable in the URL, not a bad URL', () => {
    const e = http({ url: 'https://${env:HOST}/mcp' });
    expect(
      configErrorOf(() => resolveSecrets(e, {}, 'remote')).issues.map((i) => i.message),
    ).toEqual([
      'server "remote": mcpServers.remote.url refers to ${env:HOST} but HOST is not set in the environment',
    ]);
  });
});

describe('redactSecrets', () => {
  it('returns a copy even when there is nothing to hide', () => {
    const raw = { command: 'node', args: ['server.js'], env: { MODE: 'fast' } };
    const shown = redactSecrets(raw);
    expect(shown).toEqual(raw);
    expect(shown).not.toBe(raw);
    expect(shown.env).not.toBe(raw.env);
  });

  it('masks literal secrets of a raw entry and keeps everything else', () => {
    const raw = {
      command: 'npx',
      args: ['--api-key', 'arg-secret', '--token=flag-secret', GHP, '--port', '3000'],
      env: {
        GITHUB_TOKEN: GHP,
        API_KEY: 'plain',
        OK: '${env:OK}',
        DEBUG: '1',
        NOTE: `see ${GHP} now`,
      },
    };
    const before = structuredClone(raw);
    expect(redactSecrets(raw)).toEqual({
      command: 'npx',
      args: ['--api-key', '***', '--token=***', '***', '--port', '3000'],
      env: {
        GITHUB_TOKEN: '***',
        API_KEY: '***',
        OK: '${env:OK}',
        DEBUG: '1',
        NOTE: 'see *** now',
      },
    });
    expect(raw).toEqual(before);
  });

  it('keeps an auth scheme and masks URL passwords and secret query parameters', () => {
    const raw = {
      url: 'https://alice:pw-123@x.example/mcp?api_key=abc&page=2#top',
      headers: { Authorization: 'Bearer abc.def', 'X-Api-Key': 'k123', Accept: 'application/json' },
    };
    expect(redactSecrets(raw)).toEqual({
      url: 'https://alice:***@x.example/mcp?api_key=***&page=2#top',
      headers: { Authorization: 'Bearer ***', 'X-Api-Key': '***', Accept: 'application/json' },
    });
  });

  it('masks the filled-in values of a resolved entry', () => {
    const entry = http({
      url: 'https://x.example/mcp?token=${env:T}',
      headers: { Authorization: 'Bearer ${env:T}' },
    });
    const resolved = resolveSecrets(entry, { T: 'resolved-secret' });
    const shown = redactSecrets(resolved) as HttpServerEntry;
    expect(JSON.stringify(shown)).not.toContain('resolved-secret');
    expect(shown.headers.Authorization).toBe('Bearer ***');
    expect(shown.url).toBe('https://x.example/mcp?token=***');
    expect(shown.restart).toEqual(entry.restart);
  });

  it('returns an entry without secrets as it is', () => {
    const entry = stdio({ command: 'node', env: { TOKEN: '${env:TOKEN}' } });
    expect(redactSecrets(entry)).toEqual(entry);
    expect(redactSecrets('text')).toBe('text');
    expect(redactSecrets(null)).toBeNull();
  });
});
