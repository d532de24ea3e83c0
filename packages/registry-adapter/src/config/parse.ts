/**
 * `parseMcpConfig` / `parseServerEntry`: validate with the zod schema (./schema) and turn every
 * problem into a sentence naming the server and the field — a misspelt field gets a "did you mean",
 * a missing `command`/`url` names the server, a literal secret says what to write instead.
 */
import { isRecord } from '@twofold/protocol/experimental';
import type { z } from 'zod';
import { McpConfigError, type McpConfigIssue } from './errors';
import { formatConfigPath } from './path';
import {
  httpServerEntrySchema,
  mcpConfigSchema,
  restartPolicySchema,
  secretIssues,
  stdioServerEntrySchema,
  storedVerdictSchema,
  toolFilterSchema,
} from './schema';
import { type ServersKey, schemaView, serversKeyOf } from './shape';
import { closest, fieldHint } from './suggest';
import type { McpConfig, ServerEntry } from './types';

type Branch = 'stdio' | 'http';
const BRANCHES = { stdio: stdioServerEntrySchema, http: httpServerEntrySchema } as const;
const KEYS = {
  top: Object.keys(mcpConfigSchema.in.shape),
  stdio: Object.keys(stdioServerEntrySchema.shape),
  http: Object.keys(httpServerEntrySchema.shape),
  restart: Object.keys(restartPolicySchema.shape),
  tools: Object.keys(toolFilterSchema.shape),
  verdict: Object.keys(storedVerdictSchema.shape),
};
const ENTRY_TYPES = ['stdio', 'http', 'streamable-http', 'sse'];

/**
 * Validates a whole `mcp.json` document (already JSON-parsed) and returns it with defaults
 * filled. Servers may be under `mcpServers` or VS Code's `servers`; other applications' top-level
 * settings are ignored. Throws `McpConfigError` listing every problem.
 *
 * @experimental
 */
export function parseMcpConfig(raw: unknown): McpConfig {
  const result = checkMcpConfig(raw);
  if (!result.ok) throw new McpConfigError(result.issues);
  return result.config;
}

/**
 * Like `parseMcpConfig`, without throwing.
 *
 * @experimental
 */
export function checkMcpConfig(
  raw: unknown,
): { ok: true; config: McpConfig } | { ok: false; issues: McpConfigIssue[] } {
  if (!isRecord(raw)) {
    const issue = { path: '', message: 'an MCP config must be a JSON object with "mcpServers"' };
    return { ok: false, issues: [issue] };
  }
  const parsed = mcpConfigSchema.safeParse(schemaView(raw, KEYS.top));
  if (parsed.success) return { ok: true, config: parsed.data };
  const key = serversKeyOf(raw);
  const servers = raw[key];
  const issues: McpConfigIssue[] = [];
  for (const issue of parsed.error.issues) {
    // Entry problems are re-derived per entry below, against the branch the entry meant. A bad
    // server name is not an entry problem, so it is kept (or the result would have no issue).
    const entryProblem = issue.path[0] === 'mcpServers' && issue.path.length > 1;
    if (entryProblem && issue.code !== 'invalid_key' && isRecord(servers)) continue;
    // The schema says `mcpServers`; the file may say `servers`.
    const path = issue.path[0] === 'mcpServers' ? [key, ...issue.path.slice(1)] : issue.path;
    issues.push(...describe({ ...issue, path } as z.core.$ZodIssue, [], raw));
  }
  if (isRecord(servers)) {
    for (const [name, entry] of Object.entries(servers)) {
      issues.push(...entryIssues(name, entry, key));
    }
  }
  return { ok: false, issues: dedupe(issues) };
}

/**
 * Validates one `mcpServers` entry and returns it with defaults filled. Throws `McpConfigError`.
 *
 * @experimental
 */
export function parseServerEntry(name: string, raw: unknown): ServerEntry {
  const issues = entryIssues(name, raw);
  if (issues.length > 0) throw new McpConfigError(issues);
  // No issues means the chosen branch parses.
  return BRANCHES[chooseBranch(raw as Record<string, unknown>).branch].parse(raw);
}

/** Which kind of server an entry means, and what is wrong with that choice. */
function chooseBranch(entry: Record<string, unknown>): {
  branch: Branch;
  problem?: 'neither' | 'both' | 'bad-type';
} {
  const hasCommand = 'command' in entry;
  const hasUrl = 'url' in entry;
  const type = entry.type;
  if (type === 'stdio') return { branch: 'stdio' };
  if (typeof type === 'string' && ENTRY_TYPES.includes(type)) return { branch: 'http' };
  const byFields: Branch = hasCommand || !(hasUrl || 'headers' in entry) ? 'stdio' : 'http';
  if (type !== undefined) return { branch: byFields, problem: 'bad-type' };
  if (hasCommand && hasUrl) return { branch: 'stdio', problem: 'both' };
  if (!hasCommand && !hasUrl) return { branch: byFields, problem: 'neither' };
  return { branch: byFields };
}

function entryIssues(
  name: string,
  entry: unknown,
  key: ServersKey = 'mcpServers',
): McpConfigIssue[] {
  const base = [key, name];
  const where = formatConfigPath(base);
  if (!isRecord(entry)) {
    return [{ path: where, message: `server "${name}" must be an object with "command" or "url"` }];
  }
  const { branch, problem } = chooseBranch(entry);
  const issues: McpConfigIssue[] = [];
  const skip = new Set<string>();
  if (problem === 'neither') {
    issues.push({
      path: where,
      message: `server "${name}" needs "command" (to start a stdio server) or "url" (to reach an HTTP server)`,
    });
    skip.add(branch === 'stdio' ? 'command' : 'url');
  } else if (problem === 'both') {
    issues.push({
      path: where,
      message: `server "${name}" has both "command" and "url"; keep "command" for a stdio server or "url" for an HTTP server`,
    });
    skip.add('url');
  }
  const parsed = BRANCHES[branch].safeParse(entry);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const missing = issue.code === 'invalid_type' && valueAt(entry, issue.path) === undefined;
      const field = issue.path.length === 1 ? String(issue.path[0]) : undefined;
      if (field !== undefined && missing && skip.has(field)) continue;
      if (missing && (field === 'command' || field === 'url')) {
        const kind = branch === 'stdio' ? 'a stdio server' : 'an HTTP server';
        issues.push({
          path: formatConfigPath([...base, field]),
          message: `server "${name}" is missing "${field}" (needed for ${kind})`,
        });
        continue;
      }
      if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
        const keys = issue.keys.filter((k) => !skip.has(k));
        issues.push(...unknownFields(keys, base, KEYS[branch], branch, chosenBy(name, entry)));
        continue;
      }
      issues.push(...describe(issue, base, entry));
    }
  }
  for (const secret of secretIssues(entry)) {
    const path = formatConfigPath([...base, ...secret.path]);
    const label = secret.kind === 'literal-secret' ? 'literal secret' : 'malformed reference';
    issues.push({ path, message: `${label} in ${path}: ${secret.what}; ${secret.hint}` });
  }
  return dedupe(issues);
}

function unknownFields(
  keys: readonly string[],
  base: PropertyKey[],
  known: readonly string[],
  branch?: Branch,
  /** Why the entry was read as `branch`, e.g. `server "gh" has "command"`. */
  reason?: string,
): McpConfigIssue[] {
  const where = base.length === 0 ? 'at the top level' : `in ${formatConfigPath(base)}`;
  return keys.map((key) => {
    let hint = fieldHint(key, known);
    if (hint === '' && branch !== undefined) {
      const other = branch === 'stdio' ? 'http' : 'stdio';
      if (KEYS[other].includes(key)) {
        const kind = branch === 'stdio' ? 'HTTP' : 'stdio';
        hint = ` ("${key}" belongs to ${kind} servers${reason === undefined ? '' : `; ${reason}`})`;
      }
    }
    return {
      path: formatConfigPath([...base, key]),
      message: `unknown field "${key}" ${where}${hint}`,
    };
  });
}

/** What made `chooseBranch` read an entry as stdio or HTTP: its `type`, else its fields. */
function chosenBy(server: string, entry: Record<string, unknown>): string | undefined {
  if (typeof entry.type === 'string' && ENTRY_TYPES.includes(entry.type)) {
    return `server "${server}" has "type": ${JSON.stringify(entry.type)}`;
  }
  const field = ['command', 'url', 'headers'].find((key) => key in entry);
  return field === undefined ? undefined : `server "${server}" has "${field}"`;
}

/** The known field names of the object at `path` (relative to the document root). */
function knownKeysAt(path: readonly PropertyKey[]): readonly string[] {
  const last = path[path.length - 1];
  if (path.length === 0) return KEYS.top;
  if (last === 'restart') return KEYS.restart;
  if (last === 'tools') return KEYS.tools;
  if (path[0] === 'verdicts' && path.length === 2) return KEYS.verdict;
  return [];
}

/** Turns one zod issue into sentences; `base` is where `root` sits in the document. */
function describe(issue: z.core.$ZodIssue, base: PropertyKey[], root: unknown): McpConfigIssue[] {
  const fullPath = [...base, ...issue.path];
  const path = formatConfigPath(fullPath);
  const at = (message: string): McpConfigIssue[] => [{ path, message }];
  const value = valueAt(root, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return unknownFields(issue.keys, fullPath, knownKeysAt(fullPath));
    case 'invalid_type':
      if (value === undefined)
        return at(
          `missing field "${String(fullPath.at(-1))}" in ${formatConfigPath(fullPath.slice(0, -1)) || 'the top level'}`,
        );
      return at(
        `${path} must be ${article(issue.expected === 'record' ? 'object' : issue.expected)}, not ${kindOf(value)}`,
      );
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v));
      const near = typeof value === 'string' ? closest(value, issue.values.map(String)) : undefined;
      const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
      return at(
        `${path} must be ${options.length === 1 ? options[0] : `one of ${options.join(', ')}`}${hint}`,
      );
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1)
        return at(`${path} must not be empty`);
      return at(`${path} must be at least ${String(issue.minimum)}`);
    case 'too_big':
      return at(`${path} must be at most ${String(issue.maximum)}`);
    case 'invalid_format':
      return at(
        `${path} must be ${issue.format === 'datetime' ? 'an ISO date-time' : `a valid ${issue.format}`}`,
      );
    case 'invalid_key':
      return at(
        `${formatConfigPath(base.concat(issue.path))} has an invalid name (must not be empty)`,
      );
    case 'custom':
      return at(
        issue.message.startsWith('must') ? `${path} ${issue.message}` : `${path}: ${issue.message}`,
      );
    default:
      return at(`${path || 'the config'}: ${issue.message}`);
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  // Strings are not echoed: a misplaced value might be a secret.
  return typeof value === 'string' ? 'a string' : `${typeof value} ${String(value)}`;
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function dedupe(issues: McpConfigIssue[]): McpConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => !seen.has(i.message) && seen.add(i.message) !== undefined);
}
