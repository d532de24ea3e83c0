/**
 * Host tool names: making any server's tool name valid for a host (characters and length),
 * deterministically, so the same tool always gets the same host name.
 */
import type { NameRules } from './types';

/**
 * The default host naming rules: `^[A-Za-z0-9_-]{1,64}$`, at most 64 characters (what the
 * OpenAI, Anthropic and Gemini function-calling APIs accept).
 *
 * @experimental
 */
export const DEFAULT_NAME_RULES: Readonly<NameRules> = Object.freeze({
  pattern: /^[A-Za-z0-9_-]{1,64}$/,
  maxLength: 64,
});

/** Length of the hash suffix `shortenName` appends: `_` and 8 hex digits. */
const HASH_SUFFIX_LENGTH = 9;

/**
 * Fills the unset fields of `rules` with the defaults.
 *
 * @experimental
 */
export function resolveNameRules(rules: Partial<NameRules> = {}): NameRules {
  const maxLength = rules.maxLength ?? DEFAULT_NAME_RULES.maxLength;
  if (!Number.isSafeInteger(maxLength) || maxLength < 1) {
    throw new TypeError('NameRules.maxLength must be a whole number >= 1');
  }
  // The default pattern caps names at 64 characters; under another maxLength it caps them there,
  // or every name longer than 64 would be refused although maxLength allows it.
  const pattern =
    rules.pattern ??
    (maxLength === DEFAULT_NAME_RULES.maxLength
      ? DEFAULT_NAME_RULES.pattern
      : new RegExp(`^[A-Za-z0-9_-]{1,${maxLength}}$`));
  return { pattern, maxLength };
}

/**
 * Whether `name` satisfies `rules` (its pattern and its length).
 *
 * @experimental
 */
export function isValidName(name: string, rules: NameRules): boolean {
  // A `g` or `y` pattern keeps `lastIndex` between calls; reset it so every test starts over.
  rules.pattern.lastIndex = 0;
  return [...name].length <= rules.maxLength && rules.pattern.test(name);
}

/**
 * Makes `name`'s characters acceptable: a name the pattern already accepts (length aside) is
 * kept; otherwise every character outside `[A-Za-z0-9_-]` becomes `_`. An empty name becomes
 * `_`.
 *
 * @experimental
 */
export function sanitizeName(name: string, rules: NameRules): string {
  if (name === '') return '_';
  const unlimited = { pattern: rules.pattern, maxLength: Number.MAX_SAFE_INTEGER };
  if (isValidName(name, unlimited)) return name;
  // A long name may fail the pattern only by its length: keep its characters if they are fine.
  if (/^[A-Za-z0-9_-]+$/.test(name)) return name;
  return name.replace(/[^A-Za-z0-9_-]/gu, '_');
}

/**
 * Shortens a name longer than `maxLength` to a readable prefix, `_` and an 8-hex-digit hash of
 * the whole name (FNV-1a, 32 bits), so two long names sharing a prefix still differ. Shorter
 * names are returned unchanged. Counts code points, never splitting a character.
 *
 * @experimental
 */
export function shortenName(name: string, maxLength: number): string {
  const chars = [...name];
  if (chars.length <= maxLength) return name;
  const hash = fnv1a32(name);
  if (maxLength <= HASH_SUFFIX_LENGTH) return hash.slice(0, maxLength);
  return `${chars.slice(0, maxLength - HASH_SUFFIX_LENGTH).join('')}_${hash}`;
}

/**
 * `sanitizeName` then `shortenName`: the host name for `name` under `rules`. The result may
 * still fail a custom pattern (check with `isValidName`).
 *
 * @experimental
 */
export function fitName(name: string, rules: NameRules): string {
  return shortenName(sanitizeName(name, rules), rules.maxLength);
}

/** FNV-1a over the UTF-8 bytes of `text`, as 8 lowercase hex digits. Pure JS, any runtime. */
function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
