// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:NAME}` references are the subject here
/**
 * The zod schema of mcp.json and its published JSON Schema: the JSON Schema (compiled with Ajv,
 * draft 2020-12) accepts and refuses the same documents as the zod schema for structural problems.
 */
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { mcpConfigJsonSchema, mcpConfigSchema, serverEntrySchema } from '../../src/config/schema';

// Formats are not validated: zod also emits a `pattern` for its ISO date-time, which Ajv checks.
const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
const validate = ajv.compile(mcpConfigJsonSchema);

const servers = (entries: Record<string, unknown>) => ({ mcpServers: entries });
const verdict = {
  verdict: {
    era: 'modern',
    protocolVersion: '2026-07-28',
    transport: 'streamable-http',
    serverKey: 'k',
  },
  entryFingerprint: '{"url":"https://x.example"}',
};

const VALID: [string, unknown][] = [
  ['an empty document', {}],
  ['a $schema for editors', { $schema: './mcp.schema.json', mcpServers: {} }],
  ['a minimal stdio entry', servers({ fs: { command: 'npx' } })],
  [
    'a full stdio entry',
    servers({
      fs: {
        type: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: { TOKEN: '${env:TOKEN}' },
        envAllow: ['PATH'],
        cwd: 'tools',
        enabled: false,
        era: 'legacy',
        protocolVersion: '2025-06-18',
        restart: { mode: 'always', initialDelayMs: 0, maxDelayMs: 0, factor: 1, jitter: 0 },
        tools: { allow: ['*'], deny: ['rm_*'] },
        connectTimeoutMs: 1,
        healthIntervalMs: 0,
      },
    }),
  ],
  ['a minimal HTTP entry', servers({ api: { url: 'https://mcp.example.com/mcp' } })],
  [
    'a streamable-http entry with headers',
    servers({ api: { type: 'streamable-http', url: 'https://x.example', headers: { A: 'b' } } }),
  ],
  ['an sse entry', servers({ old: { type: 'sse', url: 'http://localhost:3000/sse' } })],
  ['a URL reference', servers({ api: { url: '${env:MCP_URL}' } })],
  ['every conflict policy', { conflictPolicy: 'always-prefix' }],
  ['a stored verdict', { verdicts: { api: verdict } }],
  [
    'a stored verdict with expiry and discover result',
    {
      verdicts: {
        api: {
          ...verdict,
          expiresAt: '2026-01-02T03:04:05.678+01:00',
          verdict: { ...verdict.verdict, discover: { a: 1 } },
        },
      },
    },
  ],
];

const INVALID: [string, unknown][] = [
  ['an array', []],
  ['a string', 'mcp'],
  ['an unknown top-level field', { servers: {} }],
  ['mcpServers as an array', { mcpServers: [] }],
  ['an empty server name', servers({ '': { command: 'x' } })],
  ['an entry that is not an object', servers({ s: 'npx x' })],
  ['an entry with neither command nor url', servers({ s: { args: [] } })],
  [
    'an entry with both command and url',
    servers({ s: { command: 'x', url: 'https://x.example' } }),
  ],
  ['a misspelt field', servers({ s: { comand: 'x' } })],
  ['an unknown field', servers({ s: { command: 'x', flavour: 1 } })],
  ['an HTTP field on a stdio entry', servers({ s: { command: 'x', headers: {} } })],
  ['a stdio field on an HTTP entry', servers({ s: { url: 'https://x.example', args: [] } })],
  ['type http with a command', servers({ s: { type: 'http', command: 'x' } })],
  ['an unknown type', servers({ s: { type: 'websocket', url: 'https://x.example' } })],
  ['an empty command', servers({ s: { command: '' } })],
  ['a command that is not a string', servers({ s: { command: ['npx'] } })],
  ['args as a string', servers({ s: { command: 'x', args: 'a b' } })],
  ['a number in env', servers({ s: { command: 'x', env: { A: 1 } } })],
  ['a number in headers', servers({ s: { url: 'https://x.example', headers: { A: 1 } } })],
  ['an empty envAllow name', servers({ s: { command: 'x', envAllow: [''] } })],
  ['a bad era', servers({ s: { command: 'x', era: 'modrn' } })],
  ['a string for enabled', servers({ s: { command: 'x', enabled: 'yes' } })],
  ['a misspelt restart field', servers({ s: { command: 'x', restart: { mod: 'always' } } })],
  ['a bad restart mode', servers({ s: { command: 'x', restart: { mode: 'sometimes' } } })],
  ['a fractional delay', servers({ s: { command: 'x', restart: { initialDelayMs: 1.5 } } })],
  ['a negative delay', servers({ s: { command: 'x', restart: { maxDelayMs: -1 } } })],
  ['jitter above 1', servers({ s: { command: 'x', restart: { jitter: 2 } } })],
  ['factor below 1', servers({ s: { command: 'x', restart: { factor: 0.5 } } })],
  ['zero maxFailures', servers({ s: { command: 'x', restart: { maxFailures: 0 } } })],
  ['zero connectTimeoutMs', servers({ s: { command: 'x', connectTimeoutMs: 0 } })],
  ['an empty tool glob', servers({ s: { command: 'x', tools: { allow: [''] } } })],
  ['a misspelt tools field', servers({ s: { command: 'x', tools: { alow: ['*'] } } })],
  ['a bad conflict policy', { conflictPolicy: 'last-wins' }],
  ['a $schema that is not a string', { $schema: 1 }],
  [
    'a verdict missing fields',
    { verdicts: { s: { verdict: { era: 'modern' }, entryFingerprint: 'f' } } },
  ],
  ['a verdict with an unknown field', { verdicts: { s: { ...verdict, note: 'x' } } }],
  [
    'a verdict with a bad era',
    { verdicts: { s: { ...verdict, verdict: { ...verdict.verdict, era: 'old' } } } },
  ],
  ['a verdict with a bad expiry', { verdicts: { s: { ...verdict, expiresAt: 'tomorrow' } } }],
];

describe('mcpConfigJsonSchema and mcpConfigSchema agree on structure', () => {
  it.each(VALID)('both accept %s', (_label, document) => {
    expect(mcpConfigSchema.safeParse(document).success).toBe(true);
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(INVALID)('both refuse %s', (_label, document) => {
    expect(mcpConfigSchema.safeParse(document).success).toBe(false);
    expect(validate(document)).toBe(false);
  });
});

describe('rules only the zod schema checks', () => {
  // Documented: the JSON Schema cannot express these; an editor accepts, twofold refuses.
  it.each([
    ['a literal secret', servers({ s: { command: 'x', env: { API_KEY: 'plain-secret' } } })],
    ['a URL that is not http(s)', servers({ s: { url: 'ftp://x.example' } })],
    [
      'a first delay above the largest',
      servers({ s: { command: 'x', restart: { initialDelayMs: 10, maxDelayMs: 5 } } }),
    ],
  ])('%s', (_label, document) => {
    expect(validate(document)).toBe(true);
    expect(mcpConfigSchema.safeParse(document).success).toBe(false);
  });
});

describe('mcpConfigJsonSchema', () => {
  it('is a draft 2020-12 schema of the raw file, with the defaults noted', () => {
    expect(mcpConfigJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(mcpConfigJsonSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { conflictPolicy: { default: 'prefix-on-collision' } },
    });
    const text = JSON.stringify(mcpConfigJsonSchema);
    expect(text).not.toContain('readOnly');
    // The input side: `streamable-http` is a valid `type` in the file.
    expect(text).toContain('"streamable-http"');
  });
});

describe('mcpConfigSchema', () => {
  it('drops $schema, infers type, maps streamable-http to http and fills defaults', () => {
    const parsed = mcpConfigSchema.parse({
      $schema: 'x',
      mcpServers: { a: { command: 'x' }, b: { type: 'streamable-http', url: 'https://x.example' } },
    });
    expect(parsed).not.toHaveProperty('$schema');
    expect(parsed.mcpServers.a?.type).toBe('stdio');
    expect(parsed.mcpServers.b?.type).toBe('http');
    expect(parsed.mcpServers.b?.restart.mode).toBe('on-failure');
  });

  it('serverEntrySchema refuses a literal secret with the kind in its params', () => {
    const result = serverEntrySchema.safeParse({ command: 'x', env: { TOKEN: 'abc123' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        path: ['env', 'TOKEN'],
        params: { kind: 'literal-secret' },
      }),
    ]);
    expect(JSON.stringify(result.error?.issues)).not.toContain('abc123');
  });
});
