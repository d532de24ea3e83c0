/**
 * The long-lived registry behind one `McpServer`: every tool, prompt, resource and template,
 * in deterministic order, plus the change feed the dispatchers turn into notifications.
 */
import type { Registered } from '../api';
import type { Change } from '../operations/types';
import { OrderedCollection } from './ordered-collection';
import type { PromptEntry } from './prompts';
import { byMatchPriority, type ResourceEntry, type TemplateEntry } from './resources';
import type { ToolEntry } from './tools';

type ListKind = 'tools' | 'prompts' | 'resources';

export class Registry {
  /** Tools by name. */
  readonly tools = new OrderedCollection<ToolEntry>('tools');
  /** Prompts by name. */
  readonly prompts = new OrderedCollection<PromptEntry>('prompts');
  /** Static resources by URI (names need not be unique; URIs are). */
  readonly resources = new OrderedCollection<ResourceEntry>('resources');
  /** Resource templates by template text. */
  readonly templates = new OrderedCollection<TemplateEntry>('resources/templates');
  /** Settings of the extensions the server declares, by extension identifier. */
  readonly extensions = new Map<string, Record<string, unknown>>();
  private readonly listeners = new Set<(change: Change) => void>();
  private matchOrder: TemplateEntry[] | undefined;

  addTool(entry: ToolEntry): Registered {
    const name = entry.tool.name;
    return this.add(this.tools, name, entry, 'tools', `Tool "${name}"`);
  }

  addPrompt(entry: PromptEntry): Registered {
    const name = entry.prompt.name;
    return this.add(this.prompts, name, entry, 'prompts', `Prompt "${name}"`);
  }

  addResource(entry: ResourceEntry): Registered {
    const uri = entry.resource.uri;
    return this.add(this.resources, uri, entry, 'resources', `Resource ${JSON.stringify(uri)}`);
  }

  addTemplate(entry: TemplateEntry): Registered {
    const text = entry.template.uriTemplate;
    const what = `Resource template ${JSON.stringify(text)}`;
    return this.add(this.templates, text, entry, 'resources', what);
  }

  /** Enabled templates in the order they are tried against a URI (see `byMatchPriority`). */
  templatesInMatchOrder(): readonly TemplateEntry[] {
    this.matchOrder ??= [...this.templates.enabled()].sort(byMatchPriority);
    return this.matchOrder;
  }

  onChange(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Tells every listener; the set is copied so a listener may unsubscribe while called. */
  emit(change: Change): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  private add<E>(
    collection: OrderedCollection<E>,
    key: string,
    entry: E,
    kind: ListKind,
    what: string,
  ): Registered {
    if (collection.has(key)) throw new TypeError(`${what} is already registered`);
    const slot = collection.add(key, entry);
    let removed = false;
    const changed = (): void => {
      this.matchOrder = undefined;
      this.emit({ kind });
    };
    const setEnabled = (enabled: boolean): void => {
      if (removed || slot.enabled === enabled) return;
      slot.enabled = enabled;
      changed();
    };
    changed();
    return {
      get enabled() {
        return !removed && slot.enabled;
      },
      enable: () => setEnabled(true),
      disable: () => setEnabled(false),
      // After removal the handle is inert; the key is free for a new registration.
      remove: () => {
        if (removed) return;
        removed = true;
        collection.remove(slot);
        changed();
      },
    };
  }
}
