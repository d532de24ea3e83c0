import { listProfiles } from '../src/profiling';

/** The roles (`stdio-server`, ...) with a non-empty CPU profile of `row` under `dir`, sorted. */
export function profiledRoles(dir: string, row: string): string[] {
  const prefix = `${row.replace(/ /g, '-')}/`;
  const roles = listProfiles(dir)
    .filter((p) => p.path.startsWith(prefix) && p.bytes > 0)
    .map((p) => p.path.slice(prefix.length).split('/')[0] as string);
  return [...new Set(roles)].sort();
}
