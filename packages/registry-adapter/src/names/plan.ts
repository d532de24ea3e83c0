/**
 * The naming decision of an import, as a pure function: given every server's tools (servers in
 * provider order), a conflict policy and the host's name rules, which host name each tool gets
 * and which tools are left out, and why. Deterministic: the same input always plans the same.
 */
import { fitName, isValidName } from './rules';
import type { ConflictPolicy, NameAssignment, NameRules, SkippedTool } from './types';

/**
 * One server's tools, as input to `planNames`.
 *
 * @experimental
 */
export interface PlanServer {
  server: string;
  /** Tool names as the server lists them (already filtered). */
  tools: readonly string[];
}

/**
 * Tools that claimed the same host name.
 *
 * @experimental
 */
export interface NameConflict {
  name: string;
  /** Every claimant, in server order. */
  claimants: { server: string; tool: string }[];
}

/**
 * The result of `planNames`.
 *
 * @experimental
 */
export interface NamePlan {
  /** The tools to register, by host name. */
  assignments: NameAssignment[];
  skipped: SkippedTool[];
  /** Every clash seen: bare names offered by several servers, and host names claimed twice. */
  conflicts: NameConflict[];
}

interface Claim {
  server: string;
  tool: string;
  /** The tool's own name fitted to the rules. */
  bare: string;
}

/** The `{server}__{tool}` host name. */
function prefixed(claim: Claim, rules: NameRules): string {
  return fitName(`${claim.server}__${claim.tool}`, rules);
}

/**
 * Plans host names for `servers`' tools under `policy` (see `ConflictPolicy`). Two tools clash
 * when their names, fitted to `rules`, are equal. Every chosen name is fitted to `rules` again;
 * a name that then fails the rules is skipped as `invalid-name`, and a name already taken by an
 * earlier tool (server order, then list order) is skipped as `conflict`.
 *
 * @experimental
 */
export function planNames(
  servers: readonly PlanServer[],
  policy: ConflictPolicy,
  rules: NameRules,
): NamePlan {
  const skipped: SkippedTool[] = [];
  const conflicts: NameConflict[] = [];
  const groups = new Map<string, Claim[]>();
  for (const { server, tools } of servers) {
    const own = new Map<string, string>();
    for (const tool of tools) {
      const bare = fitName(tool, rules);
      const sibling = own.get(bare);
      if (sibling !== undefined) {
        // One server offering two tools that fit to the same name: keep the first it listed.
        const message = `tool ${JSON.stringify(tool)} of server ${JSON.stringify(server)} becomes ${JSON.stringify(bare)}, like its tool ${JSON.stringify(sibling)}`;
        skipped.push({ server, tool, reason: 'conflict', message });
        conflicts.push({
          name: bare,
          claimants: [
            { server, tool: sibling },
            { server, tool },
          ],
        });
        continue;
      }
      own.set(bare, tool);
      const group = groups.get(bare) ?? [];
      group.push({ server, tool, bare });
      groups.set(bare, group);
    }
  }

  // Candidate host names, in claim order (server order, then the server's list order).
  const candidates = new Map<Claim, string>();
  for (const group of groups.values()) {
    if (group.length > 1) {
      conflicts.push({ name: group[0]?.bare ?? '', claimants: group.map(claimant) });
    }
    for (const [index, claim] of group.entries()) {
      const decided = decide(claim, index, group, policy, rules);
      if (typeof decided === 'string') candidates.set(claim, decided);
      else skipped.push(decided);
    }
  }

  const assignments: NameAssignment[] = [];
  const taken = new Map<string, Claim>();
  const order = planOrder(servers);
  const ordered = [...groups.values()].flat().sort(order);
  for (const claim of ordered) {
    const name = candidates.get(claim);
    if (name === undefined) continue;
    if (!isValidName(name, rules)) {
      const message = `no valid host name for tool ${JSON.stringify(claim.tool)} of server ${JSON.stringify(claim.server)}: ${JSON.stringify(name)} does not match ${String(rules.pattern)}`;
      skipped.push({ ...claimant(claim), reason: 'invalid-name', message });
      continue;
    }
    const holder = taken.get(name);
    if (holder !== undefined) {
      const message = `host name ${JSON.stringify(name)} of tool ${JSON.stringify(claim.tool)} (server ${JSON.stringify(claim.server)}) is taken by tool ${JSON.stringify(holder.tool)} of server ${JSON.stringify(holder.server)}`;
      skipped.push({ ...claimant(claim), reason: 'conflict', message });
      conflicts.push({ name, claimants: [claimant(holder), claimant(claim)] });
      continue;
    }
    taken.set(name, claim);
    assignments.push({ server: claim.server, tool: claim.tool, name });
  }
  skipped.sort(order);
  return { assignments, skipped, conflicts };
}

/** The host name of one claimant of a bare name (index in server order), or why it is skipped. */
function decide(
  claim: Claim,
  index: number,
  group: readonly Claim[],
  policy: ConflictPolicy,
  rules: NameRules,
): string | SkippedTool {
  if (policy === 'always-prefix') return prefixed(claim, rules);
  if (group.length === 1) return claim.bare;
  const first = group[0] as Claim;
  const others = group.filter((other) => other !== claim).map(claimant);
  const servers = others.map((other) => JSON.stringify(other.server)).join(', ');
  switch (policy) {
    case 'prefix-on-collision':
      return prefixed(claim, rules);
    case 'first-wins':
    case 'error': {
      if (index === 0) return claim.bare;
      const verb = policy === 'error' ? 'refused' : 'left out';
      const message = `tool ${JSON.stringify(claim.tool)} of server ${JSON.stringify(claim.server)} ${verb}: server ${JSON.stringify(first.server)} already offers ${JSON.stringify(claim.bare)}`;
      return { ...claimant(claim), reason: 'conflict', message };
    }
    default: {
      const chosen = policy({ server: claim.server, tool: claim.tool, clashesWith: others });
      if (chosen === undefined) {
        const message = `the conflict resolver left out tool ${JSON.stringify(claim.tool)} of server ${JSON.stringify(claim.server)} (clashes with ${servers})`;
        return { ...claimant(claim), reason: 'resolver-declined', message };
      }
      return fitName(chosen, rules);
    }
  }
}

function claimant(claim: { server: string; tool: string }): { server: string; tool: string } {
  return { server: claim.server, tool: claim.tool };
}

/** Compares tools by server order, then by each server's list order. */
function planOrder(
  servers: readonly PlanServer[],
): (a: { server: string; tool: string }, b: { server: string; tool: string }) => number {
  const rank = new Map<string, number>();
  for (const [index, { server, tools }] of servers.entries()) {
    for (const [position, tool] of tools.entries()) {
      const key = JSON.stringify([server, tool]);
      if (!rank.has(key)) rank.set(key, index * 2 ** 26 + position);
    }
  }
  const of = (t: { server: string; tool: string }) =>
    rank.get(JSON.stringify([t.server, t.tool])) ?? Number.MAX_SAFE_INTEGER;
  return (a, b) => of(a) - of(b);
}
