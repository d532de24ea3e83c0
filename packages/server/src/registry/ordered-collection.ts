/**
 * Registered items of one kind, kept in a deterministic order: by key, comparing UTF-16 code
 * units (locale-independent, so every instance sorts alike). Disabled items stay registered but
 * are invisible to lookups and lists.
 */
import { decodeCursor, encodeCursor } from './cursor';

/** One registered item and its run-time switch. */
export interface Slot<E> {
  readonly key: string;
  readonly entry: E;
  enabled: boolean;
}

/** A page of enabled entries and the cursor of the next one, if any. */
export interface EntryPage<E> {
  entries: E[];
  nextCursor?: string;
}

export class OrderedCollection<E> {
  private readonly slots = new Map<string, Slot<E>>();
  // Sorted keys, rebuilt lazily after an addition or removal.
  private sorted: string[] | undefined;

  /** `list` names the list in cursors, so a cursor of another list is rejected. */
  constructor(private readonly list: string) {}

  get size(): number {
    return this.slots.size;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** Adds an enabled item; the caller has checked that the key is free. */
  add(key: string, entry: E): Slot<E> {
    const slot: Slot<E> = { key, entry, enabled: true };
    this.slots.set(key, slot);
    this.sorted = undefined;
    return slot;
  }

  /** Removes exactly this slot (not a later registration under the same key). */
  remove(slot: Slot<E>): void {
    if (this.slots.get(slot.key) !== slot) return;
    this.slots.delete(slot.key);
    this.sorted = undefined;
  }

  /** The enabled entry under `key`. */
  get(key: string): E | undefined {
    const slot = this.slots.get(key);
    return slot?.enabled ? slot.entry : undefined;
  }

  /** Every enabled entry, in order. */
  *enabled(): Generator<E> {
    for (const key of this.keys()) {
      const slot = this.slots.get(key);
      if (slot?.enabled) yield slot.entry;
    }
  }

  /** Every entry, enabled or not (for capability checks). */
  all(): IterableIterator<Slot<E>> {
    return this.slots.values();
  }

  /** The page after `cursor` (the first page without one). Throws on an invalid cursor. */
  page(cursor: string | undefined, pageSize: number): EntryPage<E> {
    const keys = this.keys();
    let index = cursor === undefined ? 0 : firstAfter(keys, decodeCursor(this.list, cursor));
    const entries: E[] = [];
    let last: string | undefined;
    for (; index < keys.length; index++) {
      const slot = this.slots.get(keys[index] as string);
      if (!slot?.enabled) continue;
      if (entries.length === pageSize)
        return { entries, nextCursor: encodeCursor(this.list, last as string) };
      entries.push(slot.entry);
      last = slot.key;
    }
    return { entries };
  }

  private keys(): string[] {
    this.sorted ??= [...this.slots.keys()].sort();
    return this.sorted;
  }
}

/** Index of the first key greater than `after` (binary search over sorted keys). */
function firstAfter(keys: readonly string[], after: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((keys[middle] as string) <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
