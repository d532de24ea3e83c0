/**
 * The environment of a spawned server. A server gets what it needs to run (where programs are,
 * who the user is, locale, temp dir) and what the caller passes explicitly; the rest of the
 * parent's environment (API keys, tokens) stays out unless the caller opts in.
 */

/**
 * Variables a spawned server inherits from this process by default (when set). POSIX first,
 * then the Windows ones a program needs to start (including `PATHEXT` and `ComSpec`, without
 * which `.cmd` shims such as `npx.cmd` cannot run).
 *
 * @experimental
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERDOMAIN',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
];

/**
 * Builds a child's environment: the allow-listed variables of `parent` (or all of it with
 * `inheritAll`), then `explicit` on top. An explicit `undefined` removes a variable.
 * Inherited values that start with `()` are left out: they are exported shell functions, a
 * known injection vector, and no server needs them.
 */
export function buildChildEnv(
  parent: Readonly<Record<string, string | undefined>>,
  explicit: Readonly<Record<string, string | undefined>> | undefined,
  inheritAll: boolean,
): Record<string, string> {
  const env: Record<string, string> = {};
  // Windows spells names in any case (`Path`, `SystemRoot`), so match the allow-list that way.
  const allowed = new Set(DEFAULT_INHERITED_ENV_VARS);
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || value.startsWith('()')) continue;
    if (inheritAll || allowed.has(name.toUpperCase())) env[name] = value;
  }
  for (const [name, value] of Object.entries(explicit ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
