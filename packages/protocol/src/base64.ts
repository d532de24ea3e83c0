/**
 * base64 and base64url of bytes on `btoa`/`atob`, which every runtime has (Buffer is Node's
 * only), so that every package shares one runtime-neutral implementation.
 */

/**
 * Standard, padded base64.
 *
 * @experimental
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so a long value cannot overflow the argument list of fromCharCode.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * The bytes of base64 text; throws what `atob` throws for text that is not base64.
 *
 * @experimental
 */
export function base64ToBytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/**
 * Bytes as base64url without padding (RFC 4648 §5), the form of tokens and cursors.
 *
 * @experimental
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The bytes of unpadded base64url text; `undefined` for anything else (padding included).
 *
 * @experimental
 */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  try {
    return base64ToBytes(base64);
  } catch {
    return undefined;
  }
}
