/**
 * The manager's copy of its `mcp.json`: the parsed config it acts on and the raw document edits
 * are made to, written back atomically when it came from a file. Writes are chained so they land
 * in the order they were made, and a failed write is reported, never thrown at a server.
 */
import { dirname } from 'node:path';
import { McpConfigError } from '../config/errors';
import { checkMcpConfig } from '../config/parse';
import type { McpConfig, StoredVerdict } from '../config/types';
import { updateMcpConfigFile } from '../node/config-file';
import type { ManagerConfigSource } from './types';

type Edit = (raw: Record<string, unknown>) => Record<string, unknown>;

/** A config and where it is kept. */
export class ConfigStore {
  #config: McpConfig;
  #raw: Record<string, unknown>;
  readonly path: string | undefined;
  #writes: Promise<unknown> = Promise.resolve();
  /** The text last written or read, so a watcher can tell our own writes from a user's. */
  lastText: string | undefined;

  constructor(
    source: ManagerConfigSource,
    private readonly onWriteError: (error: Error) => void,
  ) {
    this.#config = source.config;
    this.#raw = structuredClone(source.raw ?? toRaw(source.config));
    this.path = source.path;
    this.lastText = textOf(source);
  }

  get config(): McpConfig {
    return this.#config;
  }

  /** Where relative `cwd` values start: the file's directory. */
  get baseDir(): string | undefined {
    return this.path === undefined ? undefined : dirname(this.path);
  }

  /** Replaces the whole config (a reload). */
  replace(source: ManagerConfigSource): void {
    this.#config = source.config;
    this.#raw = structuredClone(source.raw ?? toRaw(source.config));
    this.lastText = textOf(source);
  }

  /**
   * Applies `edit` to the raw document and validates it (throwing `McpConfigError` and changing
   * nothing when the result is invalid); then writes it back in the background.
   */
  edit(edit: Edit): McpConfig {
    const raw = edit(structuredClone(this.#raw));
    const checked = checkMcpConfig(raw);
    if (!checked.ok) throw new McpConfigError(checked.issues);
    this.#raw = raw;
    this.#config = checked.config;
    this.#write(edit);
    return checked.config;
  }

  /** Stores or drops a server's verdict. */
  setVerdict(server: string, stored: StoredVerdict | undefined): void {
    this.edit((raw) => {
      const verdicts = { ...asRecord(raw.verdicts) };
      if (stored === undefined) delete verdicts[server];
      else verdicts[server] = stored;
      const next: Record<string, unknown> = { ...raw, verdicts };
      if (Object.keys(verdicts).length === 0) delete next.verdicts;
      return next;
    });
  }

  /** Resolves once every write so far has landed (or failed and been reported). */
  saved(): Promise<void> {
    return this.#writes.then(() => undefined);
  }

  /** The same edit, re-applied to the file as it is now (it may have changed meanwhile). */
  #write(edit: Edit): void {
    const path = this.path;
    if (path === undefined) return;
    this.#writes = this.#writes
      .then(() => updateMcpConfigFile(path, edit))
      .then(
        (document) => {
          this.lastText = document.text;
        },
        (error: unknown) =>
          this.onWriteError(error instanceof Error ? error : new Error(String(error))),
      );
  }
}

/** The file's text as read, else the text `updateMcpConfigFile` writes for a new file. */
function textOf(source: ManagerConfigSource): string | undefined {
  if (source.text !== undefined) return source.text;
  return source.raw === undefined ? undefined : `${JSON.stringify(source.raw, null, 2)}\n`;
}

function toRaw(config: McpConfig): Record<string, unknown> {
  return JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
}

/** `value` when it is a plain object, else an empty one. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
