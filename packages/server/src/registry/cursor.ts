/**
 * Pagination cursors. A cursor names a position (the list and the last key served), not an
 * offset or an instance-local token, so any instance holding the same items continues a list
 * where another left off, and removals between pages never skip or repeat an item. A keyless
 * checksum makes an edited cursor invalid rather than a different position (it is no secret:
 * a forged cursor only names a position, which is harmless).
 */
import { decodeBase64Url, encodeBase64Url } from '@twofold/protocol/experimental';
import { OperationError } from '../operations/types';

// v2 writes the key as a JSON string: a lone surrogate (possible in a name that came from JSON)
// survives it, where raw UTF-8 turned it into U+FFFD and broke the checksum.
const VERSION = 'v2';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** FNV-1a (32 bit) of the text's UTF-16 code units, in hex. */
function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The cursor of the page that follows `lastKey` in list `list`. */
export function encodeCursor(list: string, lastKey: string): string {
  const payload = `${VERSION}\n${list}\n${JSON.stringify(lastKey)}`;
  return encodeBase64Url(encoder.encode(`${checksum(payload)}${payload}`));
}

/**
 * The last key a cursor names. Throws `OperationError('invalid')` for anything this server did
 * not issue for `list` (garbage, a cursor of another list, a truncated one).
 */
export function decodeCursor(list: string, cursor: string): string {
  const bytes = decodeBase64Url(cursor);
  let text: string | undefined;
  try {
    text = bytes === undefined ? undefined : decoder.decode(bytes);
  } catch {
    text = undefined;
  }
  const payload = text?.slice(8);
  const prefix = `${VERSION}\n${list}\n`;
  if (
    payload === undefined ||
    !payload.startsWith(prefix) ||
    text?.slice(0, 8) !== checksum(payload)
  ) {
    throw invalid(list, cursor);
  }
  try {
    const key: unknown = JSON.parse(payload.slice(prefix.length));
    if (typeof key === 'string') return key;
  } catch {
    // falls through: a checksum collision on a payload this server never wrote
  }
  throw invalid(list, cursor);
}

function invalid(list: string, cursor: string): OperationError {
  return new OperationError('invalid', `Invalid cursor for ${list}`, { cursor });
}
