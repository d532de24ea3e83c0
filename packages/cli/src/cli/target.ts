/**
 * Which server a command talks to, from `--url`, `--stdio`, the command after `--`, or
 * `--server` (an `mcp.json` entry), and how (era, version, headers, environment). Loaded by
 * the commands that talk to a server, never by `--help`.
 */
import { dirname, resolve } from 'node:path';
import type { EraChoice, ServerTarget } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import type { ServerEntry } from '@twofold/registry-adapter/experimental';
import type { CommandContext } from './command';
import { listOption, stringOption } from './command';
import { splitCommandLine } from './command-line';
import { CliError, EXIT, usageError } from './exit-codes';
import { configPath } from './paths';
import { describeCommandLine, redactUrl, redactUrlsIn } from './redact';
import { httpSilenceOf } from './timeout';

/** A stdio server as started. */
export interface StdioSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** An HTTP server as reached. */
export interface HttpSpec {
  url: string;
  headers: Record<string, string>;
  /** The transport's `requestTimeoutMs`: how long a response may be silent (see `httpSilenceOf`). */
  requestTimeoutMs: number;
}

/**
 * A resolved target.
 *
 * @experimental
 */
export interface ResolvedTarget {
  /** What to connect to; its `name` is what was typed (URL, command line, `server "<name>"`), redacted. */
  target: ServerTarget;
  /** What it is, safe to print: `stdio: npx -y …` or `http: https://host/path`. */
  label: string;
  era: EraChoice;
  protocolVersion: string | undefined;
  /** Identity for private cache entries (a digest of the credentials sent). */
  principal: string;
  stdio?: StdioSpec;
  http?: HttpSpec;
}

/** The target of a command, or a usage error when none (or more than one) is given. */
export async function resolveTarget(context: CommandContext): Promise<ResolvedTarget> {
  const url = stringOption(context, 'url');
  const stdio = stringOption(context, 'stdio');
  const server = stringOption(context, 'server');
  const after = context.rest.length > 0 ? context.rest : undefined;
  const given = [url, stdio, server, after].filter((v) => v !== undefined).length;
  if (given === 0) {
    throw usageError(
      `"twofold ${context.command.path.join(' ')}" needs a server: --url <url>, --stdio "<command>", --server <name>, or -- <command>`,
    );
  }
  if (given > 1) throw usageError('give one server: --url, --stdio, --server or -- <command>');
  const era = eraOption(context);
  const protocolVersion = stringOption(context, 'protocol-version');
  if (server !== undefined) return fromConfig(context, server, era, protocolVersion);
  if (url !== undefined) {
    const typed = checkedUrl(url);
    const spec = withUrlCredentials({
      url: typed,
      headers: headerOptions(context),
      requestTimeoutMs: httpSilenceOf(context),
    });
    return {
      target: { ...httpServer(spec), name: redactUrl(typed) },
      label: `http: ${redactUrl(typed)}`,
      era: era ?? 'auto',
      protocolVersion,
      principal: JSON.stringify(Object.entries(spec.headers).sort()),
      http: spec,
    };
  }
  const [command, ...args] = after
    ? (after as [string, ...string[]])
    : splitCommandLine(stdio as string);
  const spec: StdioSpec = { command, args, env: envOptions(context), cwd: context.io.cwd };
  const name = describeCommandLine(command, args);
  return {
    target: { ...stdioServer({ ...spec, ...stderrOption(context) }), name },
    label: `stdio: ${name}`,
    era: era ?? 'auto',
    protocolVersion,
    principal: JSON.stringify(Object.entries(spec.env).sort()),
    stdio: spec,
  };
}

async function fromConfig(
  context: CommandContext,
  name: string,
  era: EraChoice | undefined,
  protocolVersion: string | undefined,
): Promise<ResolvedTarget> {
  // Loaded only here: the registry adapter (and zod's config schema) costs start-up time.
  const { resolveSecrets } = await import('@twofold/registry-adapter/experimental');
  const { managedTarget, readMcpConfigFile } = await import('@twofold/registry-adapter/node');
  const path = configPath(context.io, stringOption(context, 'config'));
  const { config } = await readMcpConfigFile(path);
  const entry = config.mcpServers[name];
  if (entry === undefined) {
    const names = Object.keys(config.mcpServers);
    throw new CliError(
      EXIT.config,
      `no server "${name}" in ${path}${names.length ? ` (it has: ${names.join(', ')})` : ''}`,
    );
  }
  const extraEnv = envOptions(context);
  const extraHeaders = headerOptions(context);
  const merged: ServerEntry =
    entry.type === 'stdio'
      ? { ...entry, env: { ...entry.env, ...extraEnv } }
      : { ...entry, headers: { ...entry.headers, ...extraHeaders } };
  const managed = managedTarget(name, merged, {
    env: context.io.env,
    baseDir: dirname(path),
    stderr: context.verbose ? (chunk) => context.note(context.paintErr.dim(chunk)) : undefined,
  });
  const resolved = resolveSecrets(merged, context.io.env, name);
  const base = {
    era: era ?? merged.era,
    protocolVersion: protocolVersion ?? merged.protocolVersion,
  };
  const label =
    entry.type === 'stdio'
      ? `${name} (stdio: ${describeCommandLine(entry.command, entry.args)})`
      : `${name} (http: ${redactUrl(entry.url)})`;
  if (resolved.type === 'stdio') {
    const cwd = resolve(dirname(path), resolved.cwd ?? '.');
    return {
      ...base,
      target: managed.target,
      label,
      principal: JSON.stringify(Object.entries(resolved.env).sort()),
      stdio: { command: resolved.command, args: resolved.args, env: resolved.env, cwd },
    };
  }
  const spec = withUrlCredentials({
    url: resolved.url,
    headers: resolved.headers,
    requestTimeoutMs: httpSilenceOf(context),
  });
  return {
    ...base,
    // Built from the spec, so a URL's userinfo travels as a header, as with --url.
    target: { ...httpServer(spec), key: managed.target.key, name: `server "${name}"` },
    label,
    principal: JSON.stringify(Object.entries(spec.headers).sort()),
    http: spec,
  };
}

function eraOption(context: CommandContext): EraChoice | undefined {
  const era = stringOption(context, 'era');
  if (era === undefined || era === 'auto' || era === 'modern' || era === 'legacy') return era;
  throw usageError(`--era must be auto, modern or legacy, not "${era}"`);
}

/** `--header K:V` options (the value may itself contain colons). */
export function headerOptions(context: CommandContext): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of listOption(context, 'header')) {
    const at = header.indexOf(':');
    if (at <= 0) throw usageError(`--header must be "Name: value", not "${header.split(':')[0]}…"`);
    headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
  }
  return headers;
}

/** `--env K=V` options. */
export function envOptions(context: CommandContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of listOption(context, 'env')) {
    const at = pair.indexOf('=');
    if (at <= 0) throw usageError(`--env must be NAME=value, not "${pair.split('=')[0]}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

function stderrOption(context: CommandContext): { stderr?: (chunk: string) => void } {
  return context.verbose ? { stderr: (chunk) => context.note(context.paintErr.dim(chunk)) } : {};
}

function checkedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.href;
  } catch {
    // Reported below.
  }
  throw usageError(`--url must be an http:// or https:// URL, not "${redactUrlsIn(url)}"`);
}

/**
 * A URL's userinfo sent as an `Authorization: Basic` header, as curl does (fetch refuses a URL
 * that holds credentials), unless an Authorization header is given; the URL goes without it.
 */
function withUrlCredentials(spec: HttpSpec): HttpSpec {
  const url = new URL(spec.url);
  if (url.username === '' && url.password === '') return spec;
  const credentials = `${percentDecoded(url.username)}:${percentDecoded(url.password)}`;
  url.username = '';
  url.password = '';
  const given = Object.keys(spec.headers).some(
    (header) => header.toLowerCase() === 'authorization',
  );
  const basic = `Basic ${Buffer.from(credentials).toString('base64')}`;
  return {
    ...spec,
    url: url.href,
    headers: given ? spec.headers : { ...spec.headers, Authorization: basic },
  };
}

function percentDecoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
