/**
 * A table of in-flight requests by id, for the per-request paths of clients and servers.
 *
 * Not a `Map`: a long-lived `Map` into which every request puts an entry and from which it
 * deletes it keeps the deleted values reachable for V8's minor collector, so each request's
 * objects, and what they point to, were promoted to the old generation (measured on Node 20
 * and 22: about the whole value per entry, against nothing for this table). A null-prototype
 * object does not, and is faster with many requests in flight.
 */
import type { RequestId } from './types';

/** Numbers and strings stay apart: `1` and `"1"` are different JSON-RPC ids. */
function keyOf(id: RequestId): string | number {
  return typeof id === 'number' ? id : `s${id}`;
}

function idOf(key: string): RequestId {
  return key.startsWith('s') ? key.slice(1) : Number(key);
}

/**
 * In-flight requests by JSON-RPC id.
 *
 * @experimental
 * @example
 * ```ts
 * const inflight = new RequestIdMap<AbortController>();
 * inflight.set(7, new AbortController());
 * inflight.get(7)?.abort();
 * inflight.delete(7);
 * ```
 */
export class RequestIdMap<V> {
  // The entry set while the table was empty sits in a slot of its own, so that with one request
  // in flight (a sequential caller) no keyed table is touched: ids only ever grow, and every
  // new one made the object's sparse elements rehash.
  #slotId: RequestId | undefined;
  #slotValue: V | undefined;
  #entries: Record<string | number, V> = Object.create(null);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: RequestId): V | undefined {
    if (id === this.#slotId) return this.#slotValue;
    return this.#entries[keyOf(id)];
  }

  has(id: RequestId): boolean {
    return id === this.#slotId || keyOf(id) in this.#entries;
  }

  set(id: RequestId, value: V): void {
    if (id === this.#slotId) {
      this.#slotValue = value;
      return;
    }
    if (this.#size === 0) {
      this.#slotId = id;
      this.#slotValue = value;
      this.#size = 1;
      return;
    }
    const key = keyOf(id);
    if (!(key in this.#entries)) this.#size++;
    this.#entries[key] = value;
  }

  delete(id: RequestId): boolean {
    if (id === this.#slotId) {
      this.#slotId = undefined;
      this.#slotValue = undefined;
      this.#size--;
      return true;
    }
    const key = keyOf(id);
    if (!(key in this.#entries)) return false;
    delete this.#entries[key];
    this.#size--;
    return true;
  }

  /** The values, as a new array (deleting while going through it is safe). */
  values(): V[] {
    const values = Object.values(this.#entries);
    if (this.#slotId !== undefined) values.unshift(this.#slotValue as V);
    return values;
  }

  /** The ids and values, as a new array. */
  entries(): [RequestId, V][] {
    const entries = Object.entries(this.#entries).map(([key, value]): [RequestId, V] => [
      idOf(key),
      value,
    ]);
    if (this.#slotId !== undefined) entries.unshift([this.#slotId, this.#slotValue as V]);
    return entries;
  }

  clear(): void {
    this.#slotId = undefined;
    this.#slotValue = undefined;
    this.#entries = Object.create(null);
    this.#size = 0;
  }
}
