/** Arbitrary chunkings for the property tests of the stream codecs. */
import fc from 'fast-check';

/** Cut points for a stream of any length: taken modulo the length, sorted, deduplicated. */
export const cutPoints = fc.array(fc.nat(), { maxLength: 24 });

/** Splits `bytes` at `cuts` (positions modulo its length); every byte lands in one chunk. */
export function splitAt<T extends Uint8Array | string>(whole: T, cuts: readonly number[]): T[] {
  if (whole.length === 0) return [whole];
  const points = [...new Set(cuts.map((cut) => cut % whole.length))].sort((a, b) => a - b);
  const chunks: T[] = [];
  let start = 0;
  for (const point of [...points, whole.length]) {
    if (point === start) continue;
    chunks.push(whole.slice(start, point) as T);
    start = point;
  }
  return chunks;
}
