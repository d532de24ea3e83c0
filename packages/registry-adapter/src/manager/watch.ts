/**
 * Hot reload of an `mcp.json`: a change to the file (an editor's save, often several events, or
 * a rename over it) triggers one reload after the writes settle. The manager's own writes are
 * recognised by their text and ignored.
 */
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { ConfigStore } from './config-store';

/** How long the file must be quiet before it is read. */
const SETTLE_MS = 150;

/**
 * Watches the directory of `path` (so a file replaced by rename is still seen) and calls
 * `reload` when the file's text differs from what the store last read or wrote. Returns the
 * function that stops watching.
 */
export function watchConfigFile(path: string, store: ConfigStore, reload: () => void): () => void {
  const name = basename(path);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text !== undefined && text !== store.lastText) reload();
  };
  const watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
    if (file !== null && file !== name) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void check(), SETTLE_MS);
  });
  watcher.on('error', () => undefined);
  return () => {
    if (timer) clearTimeout(timer);
    watcher.close();
  };
}
