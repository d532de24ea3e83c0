/**
 * parseMcpConfig / checkMcpConfig / parseServerEntry on structural problems: misspelt and unknown
 * fields, missing or conflicting `command`/`url`, wrong types and values, defaults, `type` mapping.
 */
import { describe, expect, it } from 'vitest';
import { checkMcpConfig, parseMcpConfig, parseServerEntry } from '../../src/config/parse';
import { configErrorOf } from './support';

/** The messages `checkMcpConfig` gives for `raw` (it must refuse it). */
function problems(raw: unknown): string[] {
  const result = checkMcpConfig(raw);
  if (result.ok) throw new Error('expected the config to be refused');
  expect(result.issues.length).toBeGreaterThan(0);
  return result.issues.map((issue) => issue.message);
}

const servers = (entries: Record<string, unknown>) => ({ mcpServers: entries });

const DEFAULT_RESTART = {
  mode: 'on-failure',
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.2,
  maxFailures: 5,
  windowMs: 60_000,
  stableAfterMs: 30_000,
};

describe('defaults and type inference', () => {
  it('fills every default of a stdio entry, and of the document', () => {
    const config = parseMcpConfig({
      $schema: './mcp.schema.json',
      ...servers({ fs: { command: 'npx' } }),
    });
    expect(config).toEqual({
      mcpServers: {
        fs: {
          type: 'stdio',
          command: 'npx',
          args: [],
          env: {},
          enabled: true,
          era: 'auto',
          restart: DEFAULT_RESTART,
          connectTimeoutMs: 30_000,
          healthIntervalMs: 30_000,
        },
      },
      conflictPolicy: 'prefix-on-collision',
      verdicts: {},
    });
  });

  it('fills the rest of a partial restart policy', () => {
    const entry = parseServerEntry('fs', {
      command: 'x',
      restart: { mode: 'never', maxFailures: 2 },
    });
    expect(entry.restart).toEqual({ ...DEFAULT_RESTART, mode: 'never', maxFailures: 2 });
  });

  it('accepts an empty document', () => {
    expect(parseMcpConfig({})).toEqual({
      mcpServers: {},
      conflictPolicy: 'prefix-on-collision',
      verdicts: {},
    });
  });

  it.each([
    [{ url: 'https://mcp.example.com/mcp' }, 'http'],
    [{ type: 'http', url: 'https://mcp.example.com/mcp' }, 'http'],
    [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }, 'http'],
    [{ type: 'sse', url: 'http://localhost:3000/sse' }, 'sse'],
  ])('reads %j as type %s', (raw, type) => {
    const entry = parseServerEntry('remote', raw);
    expect(entry).toMatchObject({ type, url: raw.url, headers: {}, restart: DEFAULT_RESTART });
  });

  it('keeps the fields it was given', () => {
    const raw = {
      command: 'node',
      args: ['server.js'],
      env: { LOG_LEVEL: 'debug' },
      envAllow: ['PATH'],
      cwd: 'tools',
      enabled: false,
      era: 'legacy',
      protocolVersion: '2025-06-18',
      tools: { allow: ['read_*'], deny: ['read_secret'] },
      connectTimeoutMs: 5000,
      healthIntervalMs: 0,
    };
    expect(parseServerEntry('local', raw)).toEqual({
      type: 'stdio',
      restart: DEFAULT_RESTART,
      ...raw,
    });
  });

  it('accepts each conflict policy', () => {
    for (const conflictPolicy of ['error', 'first-wins', 'prefix-on-collision', 'always-prefix']) {
      expect(parseMcpConfig({ conflictPolicy }).conflictPolicy).toBe(conflictPolicy);
    }
  });
});

describe('misspelt and unknown fields', () => {
  it.each([
    [{ comand: 'npx' }, 'unknown field "comand" in mcpServers.gh (did you mean "command"?)'],
    [{ command: 'npx', arsg: [] }, 'unknown field "arsg" in mcpServers.gh (did you mean "args"?)'],
    [{ command: 'npx', evn: {} }, 'unknown field "evn" in mcpServers.gh (did you mean "env"?)'],
    [
      { url: 'https://x.example', header: {} },
      'unknown field "header" in mcpServers.gh (did you mean "headers"?)',
    ],
    [{ command: 'npx', Args: [] }, 'unknown field "Args" in mcpServers.gh (did you mean "args"?)'],
    [
      { command: 'x', disabled: true },
      'unknown field "disabled" in mcpServers.gh (use "enabled": false)',
    ],
    [
      { command: 'x', timeout: 5 },
      'unknown field "timeout" in mcpServers.gh (did you mean "connectTimeoutMs"?)',
    ],
    [
      { command: 'x', transport: 'stdio' },
      'unknown field "transport" in mcpServers.gh (did you mean "type"?)',
    ],
  ])('names the misspelt field of %j', (entry, message) => {
    expect(problems(servers({ gh: entry }))).toContain(message);
  });

  it('names an unknown field without a guess when nothing is close', () => {
    expect(problems(servers({ gh: { command: 'npx', flavour: 'x' } }))).toEqual([
      'unknown field "flavour" in mcpServers.gh',
    ]);
  });

  it.each([
    [{ mcpServer: {} }, 'unknown field "mcpServer" at the top level (did you mean "mcpServers"?)'],
    [
      { mcpServers: {}, servers: {} },
      'unknown field "servers" at the top level (VS Code\'s name for "mcpServers"; a file has one of them, not both)',
    ],
    [
      { conflictPolcy: 'error' },
      'unknown field "conflictPolcy" at the top level (did you mean "conflictPolicy"?)',
    ],
  ])('names a misspelt top-level field of %j', (raw, message) => {
    expect(problems(raw)).toEqual([message]);
  });

  it("ignores a top-level key close to none of twofold's: another app's setting", () => {
    expect(checkMcpConfig({ mcpServers: {}, globalShortcut: 'Ctrl+Space' }).ok).toBe(true);
  });

  it('names misspelt fields of nested objects', () => {
    expect(problems(servers({ gh: { command: 'x', restart: { mod: 'always' } } }))).toEqual([
      'unknown field "mod" in mcpServers.gh.restart (did you mean "mode"?)',
    ]);
    expect(problems(servers({ gh: { command: 'x', tools: { alow: ['*'] } } }))).toEqual([
      'unknown field "alow" in mcpServers.gh.tools (did you mean "allow"?)',
    ]);
  });

  it('says which kind of server a field belongs to, and why the entry is the other kind', () => {
    expect(problems(servers({ gh: { command: 'x', headers: {} } }))).toEqual([
      'unknown field "headers" in mcpServers.gh ("headers" belongs to HTTP servers; server "gh" has "command")',
    ]);
    expect(problems(servers({ gh: { url: 'https://x.example', args: [] } }))).toEqual([
      'unknown field "args" in mcpServers.gh ("args" belongs to stdio servers; server "gh" has "url")',
    ]);
    // Read as HTTP because of `type`, not because of a `url` it does not have.
    expect(problems(servers({ gh: { type: 'http', command: 'npx' } }))).toEqual([
      'server "gh" is missing "url" (needed for an HTTP server)',
      'unknown field "command" in mcpServers.gh ("command" belongs to stdio servers; server "gh" has "type": "http")',
    ]);
  });
});

describe('command and url', () => {
  it('names the server when neither command nor url is given', () => {
    const result = checkMcpConfig(servers({ github: { args: ['-y', 'server-github'] } }));
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: 'mcpServers.github',
          message:
            'server "github" needs "command" (to start a stdio server) or "url" (to reach an HTTP server)',
        },
      ],
    });
  });

  it('names the server and the field when the type says which is missing', () => {
    expect(problems(servers({ api: { type: 'http' } }))).toEqual([
      'server "api" is missing "url" (needed for an HTTP server)',
    ]);
    expect(problems(servers({ fs: { type: 'stdio', args: [] } }))).toEqual([
      'server "fs" is missing "command" (needed for a stdio server)',
    ]);
  });

  it('refuses an entry with both command and url, once', () => {
    expect(problems(servers({ both: { command: 'npx', url: 'https://x.example' } }))).toEqual([
      'server "both" has both "command" and "url"; keep "command" for a stdio server or "url" for an HTTP server',
    ]);
  });

  it('refuses an empty command and a URL that is not http(s)', () => {
    expect(problems(servers({ s: { command: '' } }))).toEqual([
      'mcpServers.s.command must not be empty',
    ]);
    expect(problems(servers({ s: { url: 'ftp://files.example' } }))).toEqual([
      'mcpServers.s.url must be an http:// or https:// URL',
    ]);
    expect(problems(servers({ s: { url: 'not a url' } }))).toEqual([
      'mcpServers.s.url must be an http:// or https:// URL',
    ]);
  });

  it('refuses an entry that is not an object', () => {
    expect(problems(servers({ s: 'npx server' }))).toEqual([
      'server "s" must be an object with "command" or "url"',
    ]);
  });
});

describe('wrong types and values', () => {
  it.each([
    [{ command: 'x', args: 'a b' }, 'mcpServers.s.args must be an array, not a string'],
    [{ command: 'x', env: { A: 1 } }, 'mcpServers.s.env.A must be a string, not number 1'],
    [{ command: 'x', enabled: 'yes' }, 'mcpServers.s.enabled must be a boolean, not a string'],
    [
      { command: 'x', era: 'modrn' },
      'mcpServers.s.era must be one of "auto", "modern", "legacy" (did you mean "modern"?)',
    ],
    [{ command: 'x', restart: { jitter: 2 } }, 'mcpServers.s.restart.jitter must be at most 1'],
    [{ command: 'x', restart: { factor: 0.5 } }, 'mcpServers.s.restart.factor must be at least 1'],
    [{ command: 'x', connectTimeoutMs: 0 }, 'mcpServers.s.connectTimeoutMs must be at least 1'],
    [{ command: 'x', tools: { allow: [''] } }, 'mcpServers.s.tools.allow[0] must not be empty'],
  ])('explains %j', (entry, message) => {
    expect(problems(servers({ s: entry }))).toEqual([message]);
  });

  it('refuses a restart policy whose first delay exceeds the largest', () => {
    const [message] = problems(
      servers({ s: { command: 'x', restart: { initialDelayMs: 5000, maxDelayMs: 10 } } }),
    );
    expect(message).toContain('mcpServers.s.restart.initialDelayMs');
    expect(message).toContain('must not be larger than maxDelayMs');
  });

  it('never echoes a misplaced string value', () => {
    const [message] = problems(servers({ s: { command: 'x', enabled: 'hunter2' } }));
    expect(message).not.toContain('hunter2');
  });

  it.each([
    [[], 'an MCP config must be a JSON object with "mcpServers"'],
    [null, 'an MCP config must be a JSON object with "mcpServers"'],
    ['{}', 'an MCP config must be a JSON object with "mcpServers"'],
    [{ mcpServers: [] }, 'mcpServers must be an object, not an array'],
    [
      { conflictPolicy: 'first-win' },
      'conflictPolicy must be one of "error", "first-wins", "prefix-on-collision", "always-prefix" (did you mean "first-wins"?)',
    ],
  ])('explains a bad document %j', (raw, message) => {
    expect(problems(raw)).toEqual([message]);
  });

  it('refuses an empty server name with a message', () => {
    expect(checkMcpConfig(servers({ '': { command: 'x' } }))).toEqual({
      ok: false,
      issues: [
        {
          path: 'mcpServers[""]',
          message: 'mcpServers[""] has an invalid name (must not be empty)',
        },
      ],
    });
  });

  it('explains a stored verdict with missing and misspelt fields', () => {
    const raw = {
      verdicts: { gh: { verdict: { era: 'modern' }, entryFingerprint: 'f', expires: 'x' } },
    };
    expect(problems(raw)).toEqual([
      'missing field "protocolVersion" in verdicts.gh.verdict',
      // A missing enum field is reported with its allowed values.
      'verdicts.gh.verdict.transport must be one of "stream", "streamable-http", "http+sse"',
      'missing field "serverKey" in verdicts.gh.verdict',
      'unknown field "expires" in verdicts.gh (did you mean "expiresAt"?)',
    ]);
  });
});

describe('McpConfigError', () => {
  it('lists every problem of every server, with a path for each', () => {
    const raw = servers({ a: { comand: 'x' }, b: { url: 'https://x.example', era: 'old' } });
    const { issues, message, file } = configErrorOf(() => parseMcpConfig(raw));
    expect(file).toBeUndefined();
    expect(issues.map((i) => i.path)).toEqual([
      'mcpServers.a',
      'mcpServers.a.comand',
      'mcpServers.b.era',
    ]);
    expect(message.split('\n')[0]).toBe('invalid MCP config (3 problems):');
    for (const issue of issues) expect(message).toContain(`  - ${issue.message}`);
  });

  it('puts a single problem on one line', () => {
    expect(() => parseServerEntry('fs', {})).toThrow(
      /^invalid MCP config: server "fs" needs "command" \(to start a stdio server\) or "url"/,
    );
  });

  it('parseServerEntry quotes an unusual server name in paths', () => {
    const error = configErrorOf(() => parseServerEntry('my server', { command: 'x', arsg: [] }));
    expect(error.issues).toEqual([
      {
        path: 'mcpServers["my server"].arsg',
        message: 'unknown field "arsg" in mcpServers["my server"] (did you mean "args"?)',
      },
    ]);
  });
});
