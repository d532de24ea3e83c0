/**
 * `twofold config list | show | add | remove | enable | disable` on an `mcp.json`, in the shape it
 * has (`mcpServers`, or VS Code's `servers`): edits keep that shape and the file's comments.
 */
import { readFile } from 'node:fs/promises';
import {
  checkMcpConfig,
  configServers,
  parseJsonObject,
  redactSecrets,
  withConfigServers,
} from '@twofold/registry-adapter/experimental';
import { type CommandContext, stringOption } from '../cli/command';
import { splitCommandLine } from '../cli/command-line';
import { editConfigFile } from '../cli/config-file';
import { CliError, EXIT, type ExitCode, usageError } from '../cli/exit-codes';
import { json, table } from '../cli/output';
import { configPath } from '../cli/paths';
import { describeCommandLine, redactUrl } from '../cli/redact';
import { envOptions, headerOptions } from '../cli/target';

type Raw = Record<string, unknown>;

export async function run(context: CommandContext): Promise<ExitCode> {
  const path = configPath(context.io, stringOption(context, 'config'));
  const verb = context.command.path[1];
  if (verb === 'list') return list(context, path);
  const [name] = context.words;
  if (name === undefined) throw usageError(`"twofold config ${verb}" needs the server name`);
  if (verb === 'show') return show(context, path, name);
  if (verb === 'add') return edit(context, path, (raw) => add(context, raw, name), `added ${name}`);
  const change = (entry: Raw): Raw | undefined =>
    verb === 'remove' ? undefined : { ...entry, enabled: verb === 'enable' };
  return edit(
    context,
    path,
    (raw) => {
      const servers = configServers(raw);
      if (!(name in servers)) throw noServer(name, path, Object.keys(servers));
      const next = change(servers[name] as Raw);
      const { [name]: _old, ...others } = servers;
      return withConfigServers(raw, next === undefined ? others : { ...servers, [name]: next });
    },
    `${verb === 'remove' ? 'removed' : `${verb}d`} ${name}`,
  );
}

async function list(context: CommandContext, path: string): Promise<ExitCode> {
  const raw = await readLeniently(context, path);
  const servers = Object.entries(configServers(raw)).map(([name, entry]) =>
    describe(name, entry as Raw),
  );
  if (context.json) context.print(json({ file: path, servers }));
  else {
    const rows = servers.map((s) => [s.name, s.type, s.enabled ? 'yes' : 'no', s.target]);
    context.print(table(['NAME', 'TYPE', 'ENABLED', 'TARGET'], rows, { paint: context.paint }));
  }
  return EXIT.ok;
}

async function show(context: CommandContext, path: string, name: string): Promise<ExitCode> {
  const raw = await readLeniently(context, path);
  const servers = configServers(raw);
  const entry = servers[name];
  if (entry === undefined) throw noServer(name, path, Object.keys(servers));
  const shown = shownEntry(entry);
  context.print(json(context.json ? { file: path, name, entry: shown } : shown));
  return EXIT.ok;
}

function add(context: CommandContext, raw: Raw, name: string): Raw {
  const servers = configServers(raw);
  if (name in servers)
    throw new CliError(EXIT.config, `a server named "${name}" exists; remove it first`);
  const url = stringOption(context, 'url');
  const stdio = stringOption(context, 'stdio');
  const command =
    context.rest.length > 0
      ? context.rest
      : stdio === undefined
        ? undefined
        : splitCommandLine(stdio);
  if ((url === undefined) === (command === undefined)) {
    throw usageError(
      '"twofold config add" needs --url <url>, or --stdio "<command>" / -- <command>',
    );
  }
  const entry: Raw =
    url !== undefined ? { url } : { command: command?.[0], args: command?.slice(1) ?? [] };
  const headers = headerOptions(context);
  const env = envOptions(context);
  if (Object.keys(headers).length > 0) entry.headers = headers;
  if (Object.keys(env).length > 0) entry.env = env;
  for (const [flag, field] of [
    ['era', 'era'],
    ['protocol-version', 'protocolVersion'],
  ] as const) {
    const value = stringOption(context, flag);
    if (value !== undefined) entry[field] = value;
  }
  return withConfigServers(raw, { ...servers, [name]: entry });
}

async function edit(
  context: CommandContext,
  path: string,
  change: (raw: Raw) => Raw,
  done: string,
): Promise<ExitCode> {
  await editConfigFile(path, change);
  if (context.json) context.print(json({ file: path, done }));
  else context.note(`${done} in ${path}`);
  return EXIT.ok;
}

/**
 * The file as JSON, even when it breaks the rules (a literal secret, a typo): `list` and `show`
 * exist to look at such a file, safely. What is wrong is said on stderr.
 */
async function readLeniently(context: CommandContext, path: string): Promise<Raw> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    // No file yet (a fresh HOME) is an empty configuration, not a broken one.
    if ((error as { code?: unknown }).code === 'ENOENT') {
      context.note(`no ${path} yet: "twofold config add" makes it`);
      return { mcpServers: {} };
    }
    throw new CliError(EXIT.config, `cannot read ${path}: ${(error as Error).message}`);
  }
  const raw = parseJsonObject(text, path);
  const checked = checkMcpConfig(raw);
  if (!checked.ok) {
    const problems = checked.issues.map((issue) => `  - ${issue.message}`).join('\n');
    context.note(context.paintErr.yellow(`warning: ${path} would be refused:\n${problems}`));
  }
  return raw;
}

function describe(name: string, entry: Raw) {
  const isHttp = typeof entry.url === 'string';
  const type = typeof entry.type === 'string' ? entry.type : isHttp ? 'http' : 'stdio';
  const shown = shownEntry(entry);
  const target = isHttp
    ? String(shown.url)
    : describeCommandLine(String(shown.command), ((shown.args as unknown[]) ?? []).map(String));
  return { name, type, enabled: entry.enabled !== false, target };
}

/**
 * An entry as shown: literal secrets masked, and a URL without `${env:…}` references redacted
 * like every URL twofold prints (a reference names a variable, so it may stay visible).
 */
function shownEntry(entry: unknown): Raw {
  const shown = redactSecrets(entry) as Raw;
  const { url } = shown;
  if (typeof url !== 'string' || url.includes('${env:')) return shown;
  return { ...shown, url: redactUrl(url) };
}

function noServer(name: string, path: string, names: string[]): CliError {
  const known = names.length > 0 ? ` (it has: ${names.join(', ')})` : '';
  return new CliError(EXIT.config, `no server "${name}" in ${path}${known}`);
}
