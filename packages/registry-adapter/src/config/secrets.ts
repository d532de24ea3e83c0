/**
 * `${env:NAME}` references: resolving them just before a server starts, and hiding secrets when an
 * entry is shown. VS Code's `${input:ID}` cannot be resolved (twofold does not prompt): a server
 * that uses one fails to start with an error saying what to write instead.
 */
import { McpConfigError, type McpConfigIssue } from './errors';
import { formatConfigPath } from './path';
import { ENV_REFERENCE, INPUT_REFERENCE, inspectEntry, isHttpUrl } from './secret-rules';
import type { ServerEntry } from './types';

/**
 * Replaces every `${env:NAME}` in `env`, `headers`, `args`, `url` and `cwd` of a parsed entry with
 * the variable's value from `env`. Returns a new entry; the input is not changed. A variable that is
 * not set (or is empty: an empty credential is a mistake), or a VS Code `${input:ID}`, is an
 * `McpConfigError` naming the server, the field and the variable; every one is listed.
 *
 * @experimental
 */
export function resolveSecrets(
  entry: ServerEntry,
  env: Readonly<Record<string, string | undefined>>,
  serverName = 'server',
): ServerEntry {
  const issues: McpConfigIssue[] = [];
  const resolve = (path: PropertyKey[], value: string): string => {
    for (const [reference] of value.matchAll(INPUT_REFERENCE)) {
      const where = formatConfigPath(['mcpServers', serverName, ...path]);
      issues.push({
        path: where,
        message: `server "${serverName}": ${where} refers to ${reference}, a VS Code input that twofold cannot prompt for; write "\${env:NAME}" instead and set NAME in the environment`,
      });
    }
    return value.replace(ENV_REFERENCE, (reference, name: string) => {
      const found = Object.hasOwn(env, name) ? env[name] : undefined;
      if (found !== undefined && found !== '') return found;
      const where = formatConfigPath(['mcpServers', serverName, ...path]);
      issues.push({
        path: where,
        message: `server "${serverName}": ${where} refers to ${reference} but ${name} is ${found === '' ? 'empty' : 'not set'} in the environment`,
      });
      return reference;
    });
  };
  const resolveMap = (field: string, map: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(map).map(([k, v]) => [k, resolve([field, k], v)]));

  let resolved: ServerEntry;
  if (entry.type === 'stdio') {
    resolved = {
      ...entry,
      args: entry.args.map((arg, i) => resolve(['args', i], arg)),
      env: resolveMap('env', entry.env),
    };
    if (entry.cwd !== undefined) resolved.cwd = resolve(['cwd'], entry.cwd);
  } else {
    resolved = {
      ...entry,
      url: resolveUrl(entry.url, (value) => resolve(['url'], value)),
      headers: resolveMap('headers', entry.headers),
    };
  }
  if (issues.length === 0 && resolved.type !== 'stdio' && !isHttpUrl(resolved.url)) {
    const where = formatConfigPath(['mcpServers', serverName, 'url']);
    issues.push({
      path: where,
      message: `server "${serverName}": ${where} is not an http:// or https:// URL once its references are filled in`,
    });
  }
  if (issues.length > 0) throw new McpConfigError(issues);
  return resolved;
}

/**
 * A reference inside a URL's userinfo or query is percent-encoded as it is substituted, so a value
 * with `&` or `@` cannot change the URL's structure; elsewhere (host, path, a whole-URL
 * reference) it is inserted as is.
 */
function resolveUrl(url: string, resolve: (value: string) => string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
  if (scheme === undefined) return resolve(url);
  const rest = url.slice(scheme.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const after = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
  const queryAt = after.search(/[?#]/);
  const path = queryAt < 0 ? after : after.slice(0, queryAt);
  const query = queryAt < 0 ? '' : after.slice(queryAt);
  const userinfoEnd = authority.lastIndexOf('@') + 1;
  const encoded = (part: string): string =>
    part.replace(ENV_REFERENCE, (ref) => {
      const value = resolve(ref);
      return value === ref ? ref : encodeURIComponent(value);
    });
  return `${scheme}${encoded(authority.slice(0, userinfoEnd))}${resolve(authority.slice(userinfoEnd))}${resolve(path)}${encoded(query)}`;
}

/**
 * A copy of a server entry (raw, parsed or resolved) that is safe to show: values of
 * secret-named keys, well-known tokens, URL passwords and secret query parameters become `***`
 * (an auth scheme such as `Bearer` stays visible). `${env:NAME}` references stay visible, since
 * they name a variable, not its value. Other fields are copied unchanged.
 *
 * @experimental
 */
export function redactSecrets<T>(entry: T): T {
  const findings = inspectEntry(entry).filter((f) => f.kind === 'literal-secret');
  if (findings.length === 0) return structuredClone(entry);
  const copy = structuredClone(entry) as Record<PropertyKey, unknown>;
  for (const finding of findings) {
    let parent: unknown = copy;
    for (const key of finding.path.slice(0, -1)) {
      parent = (parent as Record<PropertyKey, unknown>)[key];
    }
    const last = finding.path[finding.path.length - 1];
    if (last !== undefined) (parent as Record<PropertyKey, unknown>)[last] = finding.redacted;
  }
  return copy as T;
}
