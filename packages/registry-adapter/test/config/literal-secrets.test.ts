// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:NAME}` references are the subject here
/**
 * Literal secrets in an mcp.json are refused by parseMcpConfig and by the zod schema, with a
 * message that names the field, says to write `${env:NAME}`, and never contains the secret.
 */
import { describe, expect, it } from 'vitest';
import { checkMcpConfig, parseMcpConfig } from '../../src/config/parse';
import { mcpConfigSchema } from '../../src/config/schema';
import { configErrorOf } from './support';

// Built from parts so no complete token literal sits in the source.
const GHP = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const GITHUB_PAT = `github_pat_${'11AAbbCC22'.repeat(3)}`;
const SK = `sk-${'proj0123456789abcdef'.repeat(2)}`;
const SLACK = `xoxb-${'1234567890-abcdef'.repeat(2)}`;

interface Case {
  label: string;
  entry: Record<string, unknown>;
  secret: string;
  path: string;
  hint: string;
}

const stdio = (fields: Record<string, unknown>) => ({ command: 'npx', ...fields });
const http = (fields: Record<string, unknown>) => ({
  url: 'https://mcp.example.com/mcp',
  ...fields,
});

const CASES: Case[] = [
  {
    label: 'a GitHub token in env',
    entry: stdio({ env: { GITHUB_TOKEN: GHP } }),
    secret: GHP,
    path: 'mcpServers.s.env.GITHUB_TOKEN',
    hint: 'write "${env:GITHUB_TOKEN}" instead and set GITHUB_TOKEN in the environment',
  },
  {
    label: 'a fine-grained GitHub token in env',
    entry: stdio({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_PAT } }),
    secret: GITHUB_PAT,
    path: 'mcpServers.s.env.GITHUB_PERSONAL_ACCESS_TOKEN',
    hint: 'write "${env:GITHUB_PERSONAL_ACCESS_TOKEN}" instead',
  },
  {
    label: 'an sk- key as API_KEY',
    entry: stdio({ env: { API_KEY: SK } }),
    secret: SK,
    path: 'mcpServers.s.env.API_KEY',
    hint: 'write "${env:API_KEY}" instead',
  },
  {
    label: 'a password inside a connection string in env',
    entry: stdio({ env: { DATABASE_URL: 'postgres://app:hunter2-secret@db.internal/app' } }),
    secret: 'hunter2-secret',
    path: 'mcpServers.s.env.DATABASE_URL',
    hint: 'use "${env:NAME}" in its place',
  },
  {
    label: 'a plain password under a secret-named key',
    entry: stdio({ env: { DB_PASSWORD: 'correct-horse-battery' } }),
    secret: 'correct-horse-battery',
    path: 'mcpServers.s.env.DB_PASSWORD',
    hint: 'write "${env:DB_PASSWORD}" instead',
  },
  {
    label: 'a token under a harmless key',
    entry: stdio({ env: { NOTES: `use ${SLACK} here` } }),
    secret: SLACK,
    path: 'mcpServers.s.env.NOTES',
    hint: 'write "${env:NOTES}" instead',
  },
  {
    label: 'a literal bearer token in Authorization',
    entry: http({ headers: { Authorization: 'Bearer eyJhbGciOi.payload.sig' } }),
    secret: 'eyJhbGciOi.payload.sig',
    path: 'mcpServers.s.headers.Authorization',
    hint: 'write "Bearer ${env:NAME}" instead',
  },
  {
    label: 'a bearer token under a header of any name',
    entry: http({ headers: { 'X-Upstream': 'Bearer opaque-value-123' } }),
    secret: 'opaque-value-123',
    path: 'mcpServers.s.headers.X-Upstream',
    hint: '${env:NAME}',
  },
  {
    label: 'an API key header',
    entry: http({ headers: { 'X-Api-Key': 'k-1234567890' } }),
    secret: 'k-1234567890',
    path: 'mcpServers.s.headers.X-Api-Key',
    hint: 'write "${env:NAME}" instead',
  },
  {
    label: 'a password in the URL',
    entry: { url: 'https://alice:s3cr3t-pw@mcp.example.com/mcp' },
    secret: 's3cr3t-pw',
    path: 'mcpServers.s.url',
    hint: 'use "${env:NAME}" in its place',
  },
  {
    label: 'a secret query parameter',
    entry: { url: 'https://mcp.example.com/mcp?api_key=q-secret-42&page=1' },
    secret: 'q-secret-42',
    path: 'mcpServers.s.url',
    hint: 'use "${env:NAME}" in its place',
  },
  {
    label: 'a secret flag value in args',
    entry: stdio({ args: ['server', '--api-key', 'arg-secret-1'] }),
    secret: 'arg-secret-1',
    path: 'mcpServers.s.args[2]',
    hint: '${env:NAME}',
  },
  {
    label: 'a secret --flag=value in args',
    entry: stdio({ args: ['--token=arg-secret-2'] }),
    secret: 'arg-secret-2',
    path: 'mcpServers.s.args[0]',
    hint: '${env:NAME}',
  },
  {
    label: 'a token as a bare argument',
    entry: stdio({ args: [GHP] }),
    secret: GHP,
    path: 'mcpServers.s.args[0]',
    hint: '${env:NAME}',
  },
];

describe('literal secrets are refused', () => {
  it.each(CASES)('$label', ({ entry, secret, path, hint }) => {
    const raw = { mcpServers: { s: entry } };
    const result = checkMcpConfig(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(1);
    const [issue] = result.issues;
    expect(issue?.path).toBe(path);
    expect(issue?.message).toMatch(new RegExp(`^literal secret in ${escapeRegExp(path)}: `));
    expect(issue?.message).toContain(hint);

    const error = configErrorOf(() => parseMcpConfig(raw));
    expect(JSON.stringify(result.issues)).not.toContain(secret);
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);

    // The published zod schema refuses it too, without the value in its issues.
    const zod = mcpConfigSchema.safeParse(raw);
    expect(zod.success).toBe(false);
    expect(JSON.stringify(zod.error?.issues)).not.toContain(secret);
    expect(zod.error?.issues[0]?.message).toMatch(/^literal secret: /);
  });

  it('names the well-known token format it found', () => {
    const [issue] = issuesOf({ command: 'x', env: { GITHUB_TOKEN: GHP, API_KEY: SK } });
    expect(issue?.message).toContain('a GitHub token (ghp_…)');
    expect(issuesOf({ command: 'x', env: { API_KEY: SK } })[0]?.message).toContain(
      'an API key (sk-…)',
    );
  });

  it('reports every literal secret of every server', () => {
    const result = checkMcpConfig({
      mcpServers: {
        a: { command: 'x', env: { GITHUB_TOKEN: GHP, API_KEY: SK } },
        b: http({ headers: { Authorization: 'Bearer abcdef123' } }),
      },
    });
    expect(result.ok ? [] : result.issues.map((i) => i.path)).toEqual([
      'mcpServers.a.env.GITHUB_TOKEN',
      'mcpServers.a.env.API_KEY',
      'mcpServers.b.headers.Authorization',
    ]);
  });

  it('reports a literal secret in an entry that is also broken', () => {
    const paths = issuesOf({ comand: 'x', env: { GITHUB_TOKEN: GHP } }).map((i) => i.path);
    expect(paths).toContain('mcpServers.s.env.GITHUB_TOKEN');
    expect(paths).toContain('mcpServers.s.comand');
  });

  it("points out another tool's reference syntax", () => {
    expect(issuesOf({ command: 'x', env: { TOKEN: '${TOKEN}' } })[0]?.message).toBe(
      'literal secret in mcpServers.s.env.TOKEN: a literal value for a secret; write "${env:TOKEN}" (twofold\'s reference syntax) instead',
    );
    expect(issuesOf({ command: 'x', env: { TOKEN: '$TOKEN' } })[0]?.message).toContain(
      '"${env:TOKEN}"',
    );
  });

  it('refuses a malformed reference, showing only the reference', () => {
    expect(issuesOf({ command: 'x', env: { TOKEN: '${env:MY-TOKEN}' } })).toEqual([
      {
        path: 'mcpServers.s.env.TOKEN',
        message:
          'malformed reference in mcpServers.s.env.TOKEN: a malformed reference "${env:MY-TOKEN"; write "${env:NAME}" with NAME made of letters, digits and "_"',
      },
    ]);
    expect(issuesOf(http({ headers: { Authorization: 'Bearer ${env:TOKEN' } }))[0]?.path).toBe(
      'mcpServers.s.headers.Authorization',
    );
  });
});

describe('what is not a literal secret', () => {
  it.each([
    ['references', stdio({ env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}', API_KEY: 'x-${env:K}' } })],
    ['a bearer reference', http({ headers: { Authorization: 'Bearer ${env:TOKEN}' } })],
    [
      'a referenced URL password',
      { url: 'https://alice:${env:PW}@mcp.example.com/mcp?token=${env:T}' },
    ],
    ['a URL user without password', { url: 'https://alice@mcp.example.com/mcp?page=2' }],
    [
      'descriptive secret-ish keys',
      stdio({ env: { TOKEN_FILE: '/run/token', AUTH_MODE: 'oauth', API_KEY_ID: '42' } }),
    ],
    ['flag-like values', stdio({ env: { USE_AUTH: 'true', TOKEN: '', PASSWORD: 'none' } })],
    [
      'plain settings',
      stdio({ args: ['-y', '@scope/server', '--port', '3000'], env: { LOG_LEVEL: 'debug' } }),
    ],
    ['a non-secret header', http({ headers: { Accept: 'application/json', 'X-Tenant': 'acme' } })],
    ['short sk- words', stdio({ args: ['sk-short'] })],
  ])('accepts %s', (_label, entry) => {
    const result = checkMcpConfig({ mcpServers: { s: entry } });
    expect(result.ok ? [] : result.issues).toEqual([]);
  });
});

function issuesOf(entry: Record<string, unknown>) {
  const result = checkMcpConfig({ mcpServers: { s: entry } });
  return result.ok ? [] : result.issues;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
