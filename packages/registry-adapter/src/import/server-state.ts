/**
 * What a provider holds per attached server, and the steps on it that need no provider state:
 * listing its tools through its filter, adopting a listing, opening its change stream.
 */
import type { ChangeStream, McpClient } from '@twofold/client/experimental';
import type { Tool } from '@twofold/protocol/experimental';
import { filterVerdict } from '../names/filter';
import type { SkippedTool, ToolFilter } from '../names/types';
import type { OwnedServerLink } from './adapted-tool';
import type { SyncServer } from './registry-sync';
import type { ProviderEvent } from './types';

/** One attached server. */
export interface ServerState extends SyncServer {
  readonly client: McpClient;
  readonly filter: ToolFilter | undefined;
  /** Whether the provider created the client (and closes it). */
  readonly owned: boolean;
  readonly link: OwnedServerLink;
  tools: Map<string, Tool>;
  filtered: SkippedTool[];
  stream?: ChangeStream | undefined;
  offClose?: () => void;
  /** Listings started and the newest one applied: an older listing never overwrites a newer. */
  listStarted: number;
  listApplied: number;
  relisting?: Promise<void> | undefined;
  relistAgain: boolean;
}

/** One listing of a server's tools. */
export interface Listing {
  seq: number;
  tools: Tool[];
  filtered: SkippedTool[];
}

/** Lists every page, fresh, and sorts the tools through the server's filter. */
export async function listServerTools(state: ServerState): Promise<Listing> {
  const seq = ++state.listStarted;
  const tools: Tool[] = [];
  const filtered: SkippedTool[] = [];
  for await (const tool of state.client.iterateTools({ cache: 'refresh' })) {
    const verdict = filterVerdict(tool.name, state.filter);
    if (verdict === undefined) {
      tools.push(tool);
      continue;
    }
    const message = `tool ${JSON.stringify(tool.name)} of server ${JSON.stringify(state.name)} filtered out: ${verdict}`;
    filtered.push({ server: state.name, tool: tool.name, reason: 'filtered', message });
  }
  return { seq, tools, filtered };
}

/** Takes a listing unless a newer one was already applied; a repeated name keeps its first. */
export function adoptListing(state: ServerState, listed: Listing): boolean {
  if (listed.seq < state.listApplied) return false;
  state.listApplied = listed.seq;
  state.tools = new Map();
  for (const tool of listed.tools) {
    if (!state.tools.has(tool.name)) state.tools.set(tool.name, tool);
  }
  state.filtered = listed.filtered;
  return true;
}

/**
 * Opens a `toolsListChanged` listen; `undefined` (with a warning) when the server does not
 * honour it.
 */
export async function openToolListen(
  state: ServerState,
  emit: (event: ProviderEvent) => void,
): Promise<ChangeStream | undefined> {
  const server = JSON.stringify(state.name);
  const stream = state.client.listen({ toolsListChanged: true });
  try {
    const acknowledged = await stream.acknowledged;
    if (acknowledged.toolsListChanged === true) return stream;
    const message = `server ${server} declined to announce tool list changes`;
    emit({ type: 'warning', server: state.name, message });
  } catch (error) {
    const message = `listening to server ${server} failed: ${(error as Error).message}`;
    emit({ type: 'warning', server: state.name, message });
  }
  await stream.close().catch(() => {});
  return undefined;
}
