/**
 * What the upstream server offers, as the downstream side lists it: a snapshot of its tools,
 * prompts, resources and templates, refreshed when the upstream announces a list change (or,
 * for a list it never announces, after each downstream listing, so the next one sees what
 * changed), and its resource updates for the URIs downstream clients subscribed to. Each
 * refresh or update becomes a `Change` for the served side (modern listeners, legacy sessions).
 */
import type { ChangeStream, McpClient } from '@twofold/client/experimental';
import {
  collectHeaderParams,
  type McpHeaderParam,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '@twofold/protocol/experimental';
import type { Change } from '@twofold/server/experimental';

/** The upstream lists the catalog keeps; `resources` covers the templates too. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** What the catalog reports (failed refreshes, dropped listens). */
export type CatalogReport = (message: string, error: unknown) => void;

const KIND_OF_CHANGE: Readonly<Record<string, ListKind>> = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
};

// A listen the upstream keeps dropping is given up after this many tries in a row.
const MAX_LISTEN_RETRIES = 5;
const LISTEN_RETRY_MS = 1_000;
const LISTEN_ACK_WAIT_MS = 5_000;

/** One upstream resource subscription, shared by the downstream ones for its URI. */
interface Watch {
  users: number;
  stream: ChangeStream;
}

/** The upstream's lists and changes; see the file comment. */
export class UpstreamCatalog {
  tools: Tool[] = [];
  prompts: Prompt[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  /** The capabilities served downstream: the upstream's features the bridge carries. */
  readonly capabilities: ServerCapabilities;
  private headerParamsByTool = new Map<string, readonly McpHeaderParam[]>();
  private readonly listeners = new Set<(change: Change) => void>();
  private readonly watches = new Map<string, Watch>();
  private readonly refreshes = new Map<ListKind, Promise<void>>();
  private readonly stale = new Set<ListKind>();
  private listChanges: ChangeStream | undefined;
  private closed = false;

  private constructor(
    private readonly client: McpClient,
    private readonly report: CatalogReport,
  ) {
    this.capabilities = servedCapabilities(client.serverCapabilities);
  }

  /**
   * Follows the upstream's list changes, then lists everything it offers: listening first, so
   * no change between the listing and the subscription goes unseen.
   */
  static async load(client: McpClient, report: CatalogReport): Promise<UpstreamCatalog> {
    const catalog = new UpstreamCatalog(client, report);
    await new Promise<void>((ready) => {
      // A server slow to acknowledge delays the start by a bounded time only.
      setTimeout(ready, LISTEN_ACK_WAIT_MS).unref();
      void catalog.followListChanges(ready);
    });
    await Promise.all(catalog.kinds().map((kind) => catalog.fetch(kind)));
    return catalog;
  }

  /**
   * A downstream client listed `kind`. The snapshot of a list the upstream announces changes of
   * is current; any other is refreshed now, in the background, for the next listing.
   */
  listed(kind: ListKind): void {
    if (this.capabilities[kind]?.listChanged !== true) void this.refresh(kind);
  }

  /** The `x-mcp-header` parameters of a listed tool (modern HTTP header checks). */
  headerParams(toolName: string): readonly McpHeaderParam[] | undefined {
    return this.headerParamsByTool.get(toolName);
  }

  onChange(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes upstream to `uri` while some downstream client wants its updates. */
  watchResource(uri: string): () => void {
    let watch = this.watches.get(uri);
    if (watch === undefined) {
      const stream = this.client.listen({ resourceSubscriptions: [uri] });
      watch = { users: 0, stream };
      this.watches.set(uri, watch);
      void this.followUpdates(uri, stream);
    }
    watch.users += 1;
    const shared = watch;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0 || this.watches.get(uri) !== shared) return;
      this.watches.delete(uri);
      void shared.stream.close();
    };
  }

  /** Stops following the upstream (its listens end; the client is closed by the caller). */
  async close(): Promise<void> {
    this.closed = true;
    const streams = [this.listChanges, ...[...this.watches.values()].map((w) => w.stream)];
    this.watches.clear();
    await Promise.all(streams.map((stream) => stream?.close().catch(() => undefined)));
  }

  private kinds(): ListKind[] {
    return (['tools', 'prompts', 'resources'] as const).filter(
      (kind) => this.capabilities[kind] !== undefined,
    );
  }

  private async fetch(kind: ListKind): Promise<void> {
    const client = this.client;
    switch (kind) {
      case 'tools': {
        const tools = await collect(client.iterateTools());
        this.tools = tools;
        this.headerParamsByTool = new Map(
          tools.flatMap((tool) => {
            const collected = collectHeaderParams(tool.inputSchema);
            return collected.ok && collected.params.length > 0
              ? [[tool.name, collected.params] as const]
              : [];
          }),
        );
        return;
      }
      case 'prompts':
        this.prompts = await collect(client.iteratePrompts());
        return;
      case 'resources': {
        const [resources, templates] = await Promise.all([
          collect(client.iterateResources()),
          collect(client.iterateResourceTemplates()),
        ]);
        this.resources = resources;
        this.resourceTemplates = templates;
        return;
      }
    }
  }

  /** Refetches a list, then announces it; changes arriving meanwhile coalesce into one rerun. */
  private refresh(kind: ListKind): Promise<void> {
    const running = this.refreshes.get(kind);
    if (running !== undefined) {
      this.stale.add(kind);
      return running;
    }
    const run = (async () => {
      do {
        this.stale.delete(kind);
        await this.fetch(kind);
      } while (this.stale.has(kind) && !this.closed);
      if (!this.closed) this.emit({ kind });
    })()
      .catch((error: unknown) => {
        if (!this.closed) this.report(`Refreshing the upstream ${kind} list failed`, error);
      })
      .finally(() => this.refreshes.delete(kind));
    this.refreshes.set(kind, run);
    return run;
  }

  /**
   * Follows the upstream's list changes; `ready` is called once the first listen is
   * acknowledged or given up. A listen that ends or drops is reopened, and every list
   * refreshed (changes may have been missed), until it ends that way several times in a row
   * without carrying a change.
   */
  private async followListChanges(ready: () => void): Promise<void> {
    const filter = {
      toolsListChanged: this.capabilities.tools?.listChanged === true,
      promptsListChanged: this.capabilities.prompts?.listChanged === true,
      resourcesListChanged: this.capabilities.resources?.listChanged === true,
    };
    if (!Object.values(filter).some(Boolean)) return ready();
    const over = () => this.closed || this.client.closed;
    for (let attempt = 0, failures = 0; failures < MAX_LISTEN_RETRIES && !over(); failures++) {
      const stream = this.client.listen(filter);
      this.listChanges = stream;
      try {
        await stream.acknowledged;
        ready();
        if (attempt++ > 0) for (const kind of this.kinds()) void this.refresh(kind);
        for await (const change of stream) {
          failures = 0;
          const kind = KIND_OF_CHANGE[change.type];
          if (kind !== undefined) void this.refresh(kind);
        }
      } catch (error) {
        if (!over()) this.report('The upstream list-change subscription dropped', error);
      }
      ready();
      if (over()) return;
      await new Promise((resolve) => setTimeout(resolve, LISTEN_RETRY_MS).unref());
    }
  }

  private async followUpdates(uri: string, stream: ChangeStream): Promise<void> {
    try {
      for await (const change of stream) {
        if (change.type === 'resourceUpdated')
          this.emit({ kind: 'resource-updated', uri: change.uri });
      }
    } catch (error) {
      if (!this.closed && !this.client.closed) {
        this.report(`The upstream subscription to ${uri} dropped`, error);
      }
    }
  }

  private emit(change: Change): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

/** The upstream capabilities the bridge serves: its features, never its extensions or tasks. */
function servedCapabilities(upstream: ServerCapabilities): ServerCapabilities {
  const served: ServerCapabilities = {};
  const listChanged = (value: { listChanged?: boolean } | undefined) =>
    value?.listChanged === true ? { listChanged: true } : {};
  if (upstream.tools !== undefined) served.tools = listChanged(upstream.tools);
  if (upstream.prompts !== undefined) served.prompts = listChanged(upstream.prompts);
  if (upstream.resources !== undefined) {
    served.resources = {
      ...(upstream.resources.subscribe === true ? { subscribe: true } : {}),
      ...listChanged(upstream.resources),
    };
  }
  if (upstream.completions !== undefined) served.completions = {};
  if (upstream.logging !== undefined) served.logging = {};
  return served;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
