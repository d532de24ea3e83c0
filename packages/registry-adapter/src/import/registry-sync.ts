/**
 * Applies a name plan to a host registry: unregisters what is gone, renamed or changed, then
 * registers what is new, reporting each step as a provider event. Synchronous, so one plan is
 * applied without anything interleaving.
 */
import type { Tool } from '@twofold/protocol/experimental';
import type { NamePlan } from '../names/plan';
import type { SkippedTool } from '../names/types';
import { compareNames } from '../registry/order';
import type { HostTool, ToolRegistry } from '../registry/types';
import { adaptTool, retireTool, type ServerLink } from './adapted-tool';
import type { ProviderEvent } from './types';

/** A tool of an attached server, as the sync sees it. */
export interface SyncServer {
  readonly name: string;
  readonly link: ServerLink;
  /** The tools the server listed that passed its filter, by server-side name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The tools its filter left out. */
  readonly filtered: readonly SkippedTool[];
}

/** One imported tool in the host registry. */
export interface Registration {
  readonly server: string;
  readonly tool: Tool;
  readonly hostTool: HostTool;
}

/** What a sync works on. */
export interface SyncInput {
  registry: ToolRegistry;
  /** The provider's registrations by host name; updated in place. */
  registrations: Map<string, Registration>;
  /** Attached servers, in provider order. */
  servers: readonly SyncServer[];
  plan: NamePlan;
  /** The skipped list before this sync (only changes are reported). */
  previousSkipped: readonly SkippedTool[];
  /** Why tools of servers no longer attached are removed. */
  detachReason?: string;
  emit(event: ProviderEvent): void;
}

const keyOf = (server: string, tool: string) => JSON.stringify([server, tool]);

/** Brings the registry in line with `input.plan`; returns the new skipped list. */
export function syncRegistry(input: SyncInput): SkippedTool[] {
  const { registry, registrations, plan, emit } = input;
  const servers = new Map(input.servers.map((server) => [server.name, server]));
  const skipped: SkippedTool[] = [...input.servers.flatMap((s) => s.filtered), ...plan.skipped];
  const skipOf = new Map(skipped.map((skip) => [keyOf(skip.server, skip.tool), skip]));

  const wanted = new Map<string, { name: string; server: SyncServer; tool: Tool }>();
  for (const assignment of plan.assignments) {
    const server = servers.get(assignment.server);
    const tool = server?.tools.get(assignment.tool);
    if (server && tool) wanted.set(keyOf(server.name, tool.name), { ...assignment, server, tool });
  }

  const renamedFrom = new Map<string, string>();
  const toRegister: { name: string; server: SyncServer; tool: Tool }[] = [];
  const held = new Set<string>();
  for (const [name, registration] of [...registrations].sort(([a], [b]) => compareNames(a, b))) {
    const key = keyOf(registration.server, registration.tool.name);
    const want = wanted.get(key);
    if (want && want.name === name && sameDefinition(want.tool, registration.tool)) {
      held.add(key);
      continue;
    }
    registry.unregister(name);
    registrations.delete(name);
    const origin = { server: registration.server, tool: registration.tool.name };
    if (want && want.name !== name) {
      retireTool(registration.hostTool, `renamed it to ${JSON.stringify(want.name)}`);
      renamedFrom.set(key, name);
      continue;
    }
    let reason: string;
    if (want) reason = 'its definition changed';
    else if (!servers.has(registration.server)) {
      reason = input.detachReason ?? 'its server was detached';
    } else if (!servers.get(registration.server)?.tools.has(registration.tool.name)) {
      reason = 'the server no longer lists it';
    } else reason = skipOf.get(key)?.message ?? 'left out by the name plan';
    // A detached server's tools already fail through their link, with its reason.
    if (servers.has(registration.server)) {
      retireTool(registration.hostTool, `no longer offers it: ${reason}`);
    }
    emit({ type: 'tool-unregistered', ...origin, name, reason });
  }
  for (const [key, want] of wanted) if (!held.has(key)) toRegister.push(want);

  toRegister.sort((a, b) => compareNames(a.name, b.name));
  for (const want of toRegister) {
    const key = keyOf(want.server.name, want.tool.name);
    const origin = { server: want.server.name, tool: want.tool.name };
    const hostTool = adaptTool(want.name, want.tool, want.server.link);
    const from = renamedFrom.get(key);
    try {
      registry.register(hostTool);
    } catch (error) {
      // The host registry holds a tool of that name that is not ours.
      const message = `host name ${JSON.stringify(want.name)} of tool ${JSON.stringify(want.tool.name)} (server ${JSON.stringify(want.server.name)}) is refused by the registry: ${(error as Error).message}`;
      skipped.push({ ...origin, reason: 'conflict', message });
      if (from !== undefined) {
        emit({ type: 'tool-unregistered', ...origin, name: from, reason: message });
      }
      continue;
    }
    registrations.set(want.name, { server: want.server.name, tool: want.tool, hostTool });
    if (from === undefined) emit({ type: 'tool-registered', ...origin, name: want.name });
    else emit({ type: 'tool-renamed', ...origin, from, to: want.name });
  }

  const before = new Set(input.previousSkipped.map(skipKey));
  for (const skip of skipped) {
    if (before.has(skipKey(skip))) continue;
    emit({ type: 'tool-skipped', skipped: skip });
    if (skip.reason === 'conflict') {
      emit({ type: 'warning', server: skip.server, message: skip.message });
    }
  }
  return skipped;
}

function skipKey(skip: SkippedTool): string {
  return JSON.stringify([skip.server, skip.tool, skip.reason, skip.message]);
}

/** Whether a re-listed tool is the same as the registered one (same JSON). */
function sameDefinition(a: Tool, b: Tool): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
