/**
 * The last bytes a child wrote to stderr, kept within a fixed budget so that a server that
 * floods stderr cannot grow this process's memory; the tail goes into crash errors.
 */

/**
 * Default size of the kept stderr tail: 64 KiB.
 *
 * @experimental
 */
export const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;

/** A byte ring of at most `capacity` bytes, stored as the chunks it was given. */
export class StderrRing {
  private chunks: Uint8Array[] = [];
  /** Index of the first live chunk (dropping from the front is O(1); compacted now and then). */
  private head = 0;
  private bytes = 0;

  constructor(readonly capacity: number = DEFAULT_STDERR_TAIL_BYTES) {}

  /** Bytes currently kept (never more than `capacity`). */
  get size(): number {
    return this.bytes;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length >= this.capacity) {
      this.chunks = [chunk.slice(chunk.length - this.capacity)];
      this.head = 0;
      this.bytes = this.capacity;
      return;
    }
    this.chunks.push(chunk.slice());
    this.bytes += chunk.length;
    // Drop whole chunks from the front while they are not needed, then trim the first one.
    while (this.bytes > this.capacity) {
      const first = this.chunks[this.head] as Uint8Array;
      const excess = this.bytes - this.capacity;
      if (first.length <= excess) {
        this.head++;
        this.bytes -= first.length;
      } else {
        this.chunks[this.head] = first.subarray(excess);
        this.bytes -= excess;
      }
    }
    if (this.head > 64 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /** The kept tail as text; a character cut by the front edge is dropped, not garbled. */
  text(): string {
    const all = new Uint8Array(this.bytes);
    let offset = 0;
    for (let i = this.head; i < this.chunks.length; i++) {
      const chunk = this.chunks[i] as Uint8Array;
      all.set(chunk, offset);
      offset += chunk.length;
    }
    let start = 0;
    // Skip UTF-8 continuation bytes (10xxxxxx) left over from a character cut in half.
    while (start < all.length && start < 3 && ((all[start] as number) & 0xc0) === 0x80) start++;
    return new TextDecoder('utf-8').decode(all.subarray(start));
  }
}
