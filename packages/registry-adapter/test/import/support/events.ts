/**
 * A provider's events, collected in order, with a way to await the next one that matters
 * (instead of sleeping), and a provider + registry pair that closes after the test.
 */
import { McpToolProvider } from '../../../src/import/provider';
import type { ProviderEvent, ToolProviderOptions } from '../../../src/import/types';
import { InMemoryToolRegistry } from '../../../src/registry/memory';
import type { InvokeContext } from '../../../src/registry/types';
import { afterTest } from './env';

type EventOf<T extends ProviderEvent['type']> = Extract<ProviderEvent, { type: T }>;

interface Waiter {
  from: number;
  matches: (event: ProviderEvent) => boolean;
  resolve: (event: ProviderEvent) => void;
}

/** Every event a provider reported, in order. */
export class EventLog {
  readonly events: ProviderEvent[] = [];
  readonly #waiters = new Set<Waiter>();

  /** Give this to the provider as `onEvent`. */
  readonly onEvent = (event: ProviderEvent): void => {
    this.events.push(event);
    const index = this.events.length - 1;
    for (const waiter of [...this.#waiters]) {
      if (index >= waiter.from && waiter.matches(event)) {
        this.#waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  };

  /** The events of one type, in order. */
  of<T extends ProviderEvent['type']>(type: T): EventOf<T>[] {
    return this.events.filter((event): event is EventOf<T> => event.type === type);
  }

  /** Where the log is now: pass it as `from` to wait only for later events. */
  mark(): number {
    return this.events.length;
  }

  /** Events since `mark`, compactly: `type server tool name|from>to`, for order checks. */
  since(mark: number): string[] {
    return this.events.slice(mark).map(describe);
  }

  /** The first event (at or after `from`) matching `matches`; rejects after `timeoutMs`. */
  waitFor(
    matches: (event: ProviderEvent) => boolean,
    what: string,
    { from = 0, timeoutMs = 5000 }: { from?: number; timeoutMs?: number } = {},
  ): Promise<ProviderEvent> {
    const seen = this.events.slice(from).find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`timed out waiting for ${what}; events: ${this.since(0).join(' | ')}`));
      }, timeoutMs);
      const waiter: Waiter = {
        from,
        matches,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      this.#waiters.add(waiter);
    });
  }
}

/** `tool-registered a echo echo`, `tool-renamed a echo a__echo>echo`, `server-detached a`… */
export function describe(event: ProviderEvent): string {
  switch (event.type) {
    case 'tool-registered':
      return `registered ${event.server} ${event.tool} ${event.name}`;
    case 'tool-unregistered':
      return `unregistered ${event.server} ${event.tool} ${event.name}`;
    case 'tool-renamed':
      return `renamed ${event.server} ${event.tool} ${event.from}>${event.to}`;
    case 'tool-skipped':
      return `skipped ${event.skipped.server} ${event.skipped.tool} ${event.skipped.reason}`;
    case 'server-attached':
      return `attached ${event.server} ${event.tools}`;
    case 'server-detached':
      return `detached ${event.server}`;
    case 'relist-failed':
      return `relist-failed ${event.server}`;
    case 'warning':
      return `warning ${event.server ?? ''}`;
  }
}

/** A provider over a fresh in-memory registry, closed after the test. */
export function newProvider(options: Omit<ToolProviderOptions, 'registry' | 'onEvent'> = {}) {
  const registry = new InMemoryToolRegistry();
  const log = new EventLog();
  const provider = new McpToolProvider({ ...options, registry, onEvent: log.onEvent });
  afterTest(() => provider.close());
  return { registry, log, provider };
}

/** The registry's tool names, in its order. */
export function namesOf(registry: { list(): { name: string }[] }): string[] {
  return registry.list().map((tool) => tool.name);
}

/** The text of a tool result's first content block. */
export function textOf(outcome: unknown): string {
  const content = (outcome as { content?: { type: string; text?: string }[] }).content;
  const first = content?.[0];
  if (first?.type !== 'text' || first.text === undefined) {
    throw new Error(`expected a text result, got ${JSON.stringify(outcome)}`);
  }
  return first.text;
}

/** An `invoke` context with a signal that is never aborted. */
export function ctx(extra: Partial<InvokeContext> = {}): InvokeContext {
  return { signal: new AbortController().signal, ...extra };
}
