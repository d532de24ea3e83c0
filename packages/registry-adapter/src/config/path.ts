/**
 * Renders a key path the way a user would write it: `mcpServers.github.env.TOKEN`, with
 * unusual keys quoted (`mcpServers["my server"]`) and array indexes in brackets.
 *
 * @experimental
 */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$-]*$/.test(key)) {
      out += out === '' ? key : `.${key}`;
    } else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
