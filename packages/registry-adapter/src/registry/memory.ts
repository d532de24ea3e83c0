import { compareNames } from './order';
import type { HostTool, RegistryChange, ToolRegistry } from './types';

/**
 * A plain `ToolRegistry` in memory: lists by name (code-point order) and reports every change to
 * its watchers synchronously, after the change is made (a watcher that throws is skipped).
 *
 * @experimental
 */
export class InMemoryToolRegistry implements ToolRegistry {
  readonly #tools = new Map<string, HostTool>();
  readonly #watchers = new Set<(change: RegistryChange) => void>();

  register(tool: HostTool): void {
    if (this.#tools.has(tool.name)) {
      throw new Error(`a tool named "${tool.name}" is already registered`);
    }
    this.#tools.set(tool.name, tool);
    this.#emit({ type: 'registered', name: tool.name });
  }

  unregister(name: string): boolean {
    if (!this.#tools.delete(name)) return false;
    this.#emit({ type: 'unregistered', name });
    return true;
  }

  get(name: string): HostTool | undefined {
    return this.#tools.get(name);
  }

  list(): HostTool[] {
    return [...this.#tools.values()].sort((a, b) => compareNames(a.name, b.name));
  }

  watch(listener: (change: RegistryChange) => void): () => void {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  }

  #emit(change: RegistryChange): void {
    for (const watcher of [...this.#watchers]) {
      try {
        watcher(change);
      } catch {
        // The change is made; one failing watcher must not hide it from the others.
      }
    }
  }
}
