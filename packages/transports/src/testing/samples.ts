/** Payloads the contract round-trips: text that breaks naive framing, and large strings. */
import { assert } from 'vitest';

/** Builds an ASCII string of exactly `length` characters with a non-repeating-looking pattern. */
export function largePayload(length: number): string {
  const pattern = 'The quick brown fox jumps over the lazy dog 0123456789 {"[,]}:\\/ ';
  return pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);
}

/** A deterministic string of random code points from every UTF-8 length, no lone surrogates. */
function randomText(codePoints: number, seed: number): string {
  const ranges: Array<[number, number]> = [
    [0x20, 0x7e],
    [0xa0, 0x7ff],
    [0x800, 0xd7ff],
    [0xe000, 0xfffd],
    [0x10000, 0x10ffff],
  ];
  let state = seed >>> 0;
  const next = () => {
    // xorshift32: small, seedable, and good enough to spread code points.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const chars: string[] = [];
  for (let i = 0; i < codePoints; i++) {
    const [low, high] = ranges[Math.floor(next() * ranges.length)] ?? [0x20, 0x7e];
    chars.push(String.fromCodePoint(low + Math.floor(next() * (high - low + 1))));
  }
  return chars.join('');
}

/**
 * Named texts whose UTF-8 encodings have 2-, 3- and 4-byte sequences; the long repetitions make
 * sure that any chunking of the byte stream splits some character in the middle.
 */
export const utf8Samples: Readonly<Record<string, string>> = {
  cjk: '日本語のテキスト、中文字符、한국어 텍스트',
  emoji: '😀🎉🚀 👩‍👩‍👧‍👦 🏳️‍🌈 🇯🇵 👍🏽',
  combiningMarks: 'e\u0301 a\u0308 n\u0303 Z\u0324\u0354\u0367\u0311\u0313 \u1100\u1161\u11a8',
  rightToLeft: 'مرحبا بالعالم שלום עולם',
  separators: 'line\u2028separator paragraph\u2029separator nel\u0085 bom\ufeff zwsp\u200b',
  controls: 'tab\t newline\n return\r nul\u0000 escape\u001b delete\u007f quote" backslash\\',
  emojiRun: '😀'.repeat(40_000),
  euroRun: '€'.repeat(30_000),
  accentRun: 'é'.repeat(50_000),
  random: randomText(20_000, 0x2f6e_9a31),
};

/** Asserts two texts are identical, reporting the first difference instead of a huge diff. */
export function expectSameText(actual: unknown, expected: string, label: string): void {
  if (actual === expected) return;
  if (typeof actual !== 'string') {
    assert.fail(`${label}: expected a string, got ${typeof actual}`);
  }
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  const excerpt = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 8), at + 8));
  assert.fail(
    `${label}: texts differ at index ${at} (lengths ${actual.length} and ${expected.length}): ` +
      `got ${excerpt(actual)}, expected ${excerpt(expected)}`,
  );
}
