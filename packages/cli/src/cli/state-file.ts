/**
 * A JSON file of entries kept between runs (cached results, era verdicts). Read once at start,
 * written once at the end with a temp file and a rename, so a crash or a concurrent run leaves
 * either the old or the new file, never a torn one. A missing or unreadable file is empty.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Entries by key, with what makes one stale. */
export class StateFile<T> {
  #entries = new Map<string, T>();
  #dirty = false;

  private constructor(readonly path: string) {}

  /** Reads `path`, keeping only entries `keep` accepts (e.g. not expired). */
  static async open<T>(path: string, keep: (entry: T) => boolean): Promise<StateFile<T>> {
    const file = new StateFile<T>(path);
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as { entries?: Record<string, T> };
      for (const [key, entry] of Object.entries(parsed.entries ?? {})) {
        if (keep(entry)) file.#entries.set(key, entry);
        else file.#dirty = true;
      }
    } catch {
      // Nothing stored yet, or a file we cannot read: start empty (it is only a cache).
    }
    return file;
  }

  get(key: string): T | undefined {
    return this.#entries.get(key);
  }

  set(key: string, entry: T): void {
    this.#entries.set(key, entry);
    this.#dirty = true;
  }

  delete(key: string): void {
    if (this.#entries.delete(key)) this.#dirty = true;
  }

  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /** Writes the file when anything changed. Failures are returned, not thrown: it is a cache. */
  async save(): Promise<Error | undefined> {
    if (!this.#dirty) return undefined;
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(this.path), { recursive: true });
      const entries = Object.fromEntries(this.#entries);
      await writeFile(temp, `${JSON.stringify({ version: 1, entries })}\n`, { mode: 0o600 });
      await rename(temp, this.path);
      this.#dirty = false;
      return undefined;
    } catch (error) {
      await rm(temp, { force: true });
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}
