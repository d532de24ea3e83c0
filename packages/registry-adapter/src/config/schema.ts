/**
 * The published zod 4 schema of `mcp.json` and its JSON Schema (draft 2020-12). Parsing fills
 * defaults, infers `type` (`command` → stdio, `url` → http), maps `streamable-http` to `http` and
 * refuses unknown fields and literal secrets. `parseMcpConfig` (./parse) uses the same pieces and
 * turns zod's issues into messages that name the server and the field.
 */

import type { EraVerdict } from '@twofold/client/experimental';
import { z } from 'zod';
import { inspectEntry, isHttpUrlTemplate } from './secret-rules';

const DEFAULT_RESTART = {
  mode: 'on-failure',
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.2,
  maxFailures: 5,
  windowMs: 60_000,
  stableAfterMs: 30_000,
} as const;

const millis = (fallback: number) => z.int().min(0).default(fallback);

/**
 * `restart` of a server entry; every field defaults.
 *
 * @experimental
 */
export const restartPolicySchema = z
  .strictObject({
    mode: z.enum(['on-failure', 'always', 'never']).default(DEFAULT_RESTART.mode),
    initialDelayMs: millis(DEFAULT_RESTART.initialDelayMs),
    maxDelayMs: millis(DEFAULT_RESTART.maxDelayMs),
    factor: z.number().min(1).default(DEFAULT_RESTART.factor),
    jitter: z.number().min(0).max(1).default(DEFAULT_RESTART.jitter),
    maxFailures: z.int().min(1).default(DEFAULT_RESTART.maxFailures),
    windowMs: z.int().min(1).default(DEFAULT_RESTART.windowMs),
    stableAfterMs: millis(DEFAULT_RESTART.stableAfterMs),
  })
  .refine((r) => r.initialDelayMs <= r.maxDelayMs, {
    message: 'initialDelayMs must not be larger than maxDelayMs',
    path: ['initialDelayMs'],
  });

const globList = z.array(z.string().min(1)).readonly();

/**
 * `tools` of a server entry: exact names or `*` globs; deny wins.
 *
 * @experimental
 */
export const toolFilterSchema = z.strictObject({
  allow: globList.optional(),
  deny: globList.optional(),
});

/** Fields every entry may carry besides how to reach the server. */
const commonFields = {
  enabled: z.boolean().default(true),
  era: z.enum(['auto', 'modern', 'legacy']).default('auto'),
  protocolVersion: z.string().min(1).optional(),
  restart: restartPolicySchema.prefault({}),
  tools: toolFilterSchema.optional(),
  connectTimeoutMs: z.int().min(1).default(30_000),
  healthIntervalMs: millis(30_000),
};

const stringMap = z.record(z.string(), z.string());

/**
 * A stdio server entry: `command` required, `type` optional (`stdio`).
 *
 * @experimental
 */
export const stdioServerEntrySchema = z.strictObject({
  type: z.literal('stdio').default('stdio'),
  command: z.string().min(1),
  args: z.array(z.string()).default(() => []),
  env: stringMap.default(() => ({})),
  /** Parent environment variables the child may see, by exact name. */
  envAllow: z.array(z.string().min(1)).optional(),
  cwd: z.string().min(1).optional(),
  ...commonFields,
});

/**
 * An HTTP server entry: `url` required, `type` optional (`http`; `streamable-http` means `http`;
 * `sse` is the 2024-11-05 HTTP+SSE transport).
 *
 * @experimental
 */
export const httpServerEntrySchema = z.strictObject({
  type: z
    .enum(['http', 'streamable-http', 'sse'])
    .default('http')
    .transform((t) => (t === 'streamable-http' ? 'http' : t)),
  url: z.string().refine(isHttpUrlTemplate, { message: 'must be an http:// or https:// URL' }),
  headers: stringMap.default(() => ({})),
  ...commonFields,
});

/**
 * One literal secret or malformed reference in a raw entry, as a validation issue (path relative
 * to the entry; the message never contains the secret).
 *
 * @experimental
 */
export interface SecretIssue {
  path: PropertyKey[];
  kind: 'literal-secret' | 'malformed-reference';
  /** `a GitHub token (ghp_…)`, `a literal value for a secret`, … */
  what: string;
  /** What to write instead. */
  hint: string;
}

/**
 * Literal secrets and malformed `${env:…}` references of a raw entry. Works on any input, so a
 * structurally broken entry still gets them reported by `parseMcpConfig`.
 *
 * @experimental
 */
export function secretIssues(entry: unknown): SecretIssue[] {
  return inspectEntry(entry).map(({ path, kind, what, hint }) => ({ path, kind, what, hint }));
}

/** Adds the secret issues of an entry that is otherwise valid to a zod context. */
function refineSecrets(entry: unknown, ctx: z.RefinementCtx): void {
  for (const issue of secretIssues(entry)) {
    const label = issue.kind === 'literal-secret' ? 'literal secret' : 'malformed reference';
    ctx.addIssue({
      code: 'custom',
      path: issue.path,
      message: `${label}: ${issue.what}; ${issue.hint}`,
      params: { kind: issue.kind },
    });
  }
}

/**
 * One entry of `mcpServers`: stdio (has `command`) or HTTP (has `url`), defaults filled.
 *
 * @experimental
 */
export const serverEntrySchema = z
  .union([stdioServerEntrySchema, httpServerEntrySchema])
  .superRefine((entry, ctx) => refineSecrets(entry, ctx));

const eraVerdictSchema = z.object({
  era: z.enum(['modern', 'legacy']),
  protocolVersion: z.string(),
  transport: z.enum(['stream', 'streamable-http', 'http+sse']),
  // The discover result is machine-written by the client and re-checked by it when reused.
  discover: z
    .record(z.string(), z.unknown())
    .transform((d) => d as unknown as NonNullable<EraVerdict['discover']>)
    .optional(),
  serverKey: z.string(),
});

/**
 * A persisted era verdict under `verdicts`.
 *
 * @experimental
 */
export const storedVerdictSchema = z.strictObject({
  verdict: eraVerdictSchema,
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  entryFingerprint: z.string(),
});

/**
 * A whole `mcp.json`, servers under `mcpServers` (`checkMcpConfig` also reads VS Code's
 * `servers`). A top-level `$schema` (for editors) and VS Code's `inputs` are accepted and dropped:
 * twofold never prompts for an input.
 *
 * @experimental
 */
export const mcpConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    inputs: z.array(z.record(z.string(), z.unknown())).optional(),
    mcpServers: z.record(z.string().min(1), serverEntrySchema).default(() => ({})),
    conflictPolicy: z
      .enum(['error', 'first-wins', 'prefix-on-collision', 'always-prefix'])
      .default('prefix-on-collision'),
    verdicts: z.record(z.string(), storedVerdictSchema).default(() => ({})),
  })
  .transform(({ $schema: _schema, inputs: _inputs, ...config }) => config);

/**
 * What `mcpConfigSchema` accepts (the raw file), as a type.
 *
 * @experimental
 */
export type McpConfigInput = z.input<typeof mcpConfigSchema>;

/**
 * What `serverEntrySchema` accepts (one raw entry), as a type.
 *
 * @experimental
 */
export type ServerEntryInput = z.input<typeof serverEntrySchema>;

/**
 * The JSON Schema (draft 2020-12) of the raw `mcp.json`: what a file may contain, with the
 * defaults noted. It cannot express the literal-secret rule, which only the zod schema checks.
 *
 * @experimental
 */
export const mcpConfigJsonSchema: Record<string, unknown> = z.toJSONSchema(mcpConfigSchema, {
  io: 'input',
  target: 'draft-2020-12',
  // `.readonly()` lists are a TypeScript matter, not a constraint on the file.
  override: ({ jsonSchema }) => {
    delete jsonSchema.readOnly;
  },
});
