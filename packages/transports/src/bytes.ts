/** Byte helpers the HTTP client and server share. */

/** The chunks as one array (the only chunk itself when there is one); `total` is their size. */
export function concatBytes(
  chunks: readonly Uint8Array[],
  total = chunks.reduce((size, chunk) => size + chunk.byteLength, 0),
): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
