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
  #entries: Record<string | number, V> = Object.create(null);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: RequestId): V | undefined {
    return this.#entries[keyOf(id)];
  }

  has(id: RequestId): boolean {
    return keyOf(id) in this.#entries;
  }

  set(id: RequestId, value: V): void {
    const key = keyOf(id);
    if (!(key in this.#entries)) this.#size++;
    this.#entries[key] = value;
  }

  delete(id: RequestId): boolean {
    const key = keyOf(id);
    if (!(key in this.#entries)) return false;
    delete this.#entries[key];
    this.#size--;
    return true;
  }

  /** The values, as a new array (deleting while going through it is safe). */
  values(): V[] {
    return Object.values(this.#entries);
  }

  /** The ids and values, as a new array. */
  entries(): [RequestId, V][] {
    return Object.entries(this.#entries).map(([key, value]) => [idOf(key), value]);
  }

  clear(): void {
    this.#entries = Object.create(null);
    this.#size = 0;
  }
}
