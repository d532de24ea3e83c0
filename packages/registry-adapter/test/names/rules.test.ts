/** Host name rules: defaults, validity, sanitising, shortening with a stable hash. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NAME_RULES,
  fitName,
  isValidName,
  resolveNameRules,
  sanitizeName,
  shortenName,
} from '../../src/names/rules';

const rules = resolveNameRules();

describe('resolveNameRules', () => {
  it('defaults to the function-calling rules of the big hosts', () => {
    expect(rules).toEqual({ pattern: /^[A-Za-z0-9_-]{1,64}$/, maxLength: 64 });
    expect(DEFAULT_NAME_RULES.maxLength).toBe(64);
    expect(Object.isFrozen(DEFAULT_NAME_RULES)).toBe(true);
  });

  it('keeps a custom pattern and a custom maxLength', () => {
    const pattern = /^[a-z]+$/;
    expect(resolveNameRules({ pattern, maxLength: 10 })).toEqual({ pattern, maxLength: 10 });
  });

  it('caps the default characters at a custom maxLength instead of at 64', () => {
    const long = resolveNameRules({ maxLength: 100 });
    expect(isValidName('a'.repeat(100), long)).toBe(true);
    expect(isValidName('a'.repeat(101), long)).toBe(false);
    expect(isValidName('a.b', long)).toBe(false);
    const short = resolveNameRules({ maxLength: 8 });
    expect(isValidName('abcdefgh', short)).toBe(true);
    expect(isValidName('abcdefghi', short)).toBe(false);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses maxLength %s', (max) => {
    expect(() => resolveNameRules({ maxLength: max })).toThrow(TypeError);
  });
});

describe('isValidName', () => {
  it.each([
    ['get_weather', true],
    ['a-b_C9', true],
    ['a'.repeat(64), true],
    ['a'.repeat(65), false],
    ['', false],
    ['has space', false],
    ['dot.ted', false],
    ['slash/ed', false],
    ['ünïcode', false],
  ])('%j is valid: %s', (name, valid) => {
    expect(isValidName(name, rules)).toBe(valid);
  });

  it('checks maxLength even when the pattern has no length limit', () => {
    const loose = { pattern: /^[a-z]+$/, maxLength: 3 };
    expect(isValidName('abc', loose)).toBe(true);
    expect(isValidName('abcd', loose)).toBe(false);
  });

  it('counts code points, not UTF-16 units', () => {
    const emoji = { pattern: /^\p{Extended_Pictographic}+$/u, maxLength: 2 };
    expect(isValidName('😀😀', emoji)).toBe(true);
    expect(isValidName('😀😀😀', emoji)).toBe(false);
  });

  it('gives the same answer every time for a global pattern', () => {
    // A `g` regex remembers lastIndex; a second test would fail without the reset.
    const global = { pattern: /^[a-z]+$/g, maxLength: 10 };
    expect([1, 2, 3].map(() => isValidName('abc', global))).toEqual([true, true, true]);
  });
});

describe('sanitizeName', () => {
  it.each([
    ['get_weather', 'get_weather'],
    ['my.tool', 'my_tool'],
    ['read file', 'read_file'],
    ['a/b:c@d', 'a_b_c_d'],
    ['héllo', 'h_llo'],
    ['😀x', '_x'],
    ['', '_'],
  ])('%j becomes %j', (name, expected) => {
    expect(sanitizeName(name, rules)).toBe(expected);
  });

  it('keeps a long name whose characters are fine (shortening is a separate step)', () => {
    const long = 'x'.repeat(100);
    expect(sanitizeName(long, rules)).toBe(long);
  });

  it('keeps characters that a custom pattern accepts', () => {
    const dotted = { pattern: /^[a-z.]+$/, maxLength: 64 };
    expect(sanitizeName('my.tool', dotted)).toBe('my.tool');
  });
});

describe('shortenName', () => {
  it('leaves names that fit unchanged', () => {
    expect(shortenName('abc', 3)).toBe('abc');
    expect(shortenName('a'.repeat(64), 64)).toBe('a'.repeat(64));
  });

  it('uses FNV-1a (32 bits) of the whole name', () => {
    // Published FNV-1a test vector: "foobar" -> 0xbf9cf968 (a maxLength <= 9 is all hash).
    expect(shortenName('foobar', 5)).toBe('bf9cf');
    // 0x4e48052d for "a" x 200, computed with an independent FNV-1a implementation.
    expect(shortenName('a'.repeat(200), 64)).toBe(`${'a'.repeat(55)}_4e48052d`);
  });

  it('keeps a readable prefix and appends _ and 8 hex digits', () => {
    const name = `${'read_'.repeat(20)}end`;
    const short = shortenName(name, 64);
    expect(short).toHaveLength(64);
    expect(short.slice(0, 55)).toBe(name.slice(0, 55));
    expect(short.slice(55)).toMatch(/^_[0-9a-f]{8}$/);
  });

  it('never splits a character outside the BMP', () => {
    const short = shortenName('😀'.repeat(70), 64);
    expect([...short]).toHaveLength(64);
    expect(short.startsWith('😀'.repeat(55))).toBe(true);
    expect(short).toMatch(/_[0-9a-f]{8}$/);
  });
});

describe('fitName', () => {
  it('shortens a 200-character name to 64, stably, within the default rules', () => {
    const long = 'a'.repeat(200);
    const fitted = fitName(long, rules);
    expect(fitted).toHaveLength(64);
    expect(isValidName(fitted, rules)).toBe(true);
    expect(fitName('a'.repeat(200), rules)).toBe(fitted);
    expect(fitted.startsWith('a'.repeat(55))).toBe(true);
  });

  it('gives two long names that share a 64-character prefix different names', () => {
    const base = 'search_'.repeat(20);
    const one = fitName(`${base}issues`, rules);
    const two = fitName(`${base}pulls`, rules);
    expect(one).not.toBe(two);
    expect(one.slice(0, 55)).toBe(two.slice(0, 55));
    expect(isValidName(one, rules) && isValidName(two, rules)).toBe(true);
  });

  it('sanitises before shortening, so a long invalid name becomes valid', () => {
    const fitted = fitName(`${'a.b '.repeat(50)}`, rules);
    expect(isValidName(fitted, rules)).toBe(true);
    expect(fitted.startsWith('a_b_a_b_')).toBe(true);
  });

  it('honours a custom maxLength', () => {
    const ten = resolveNameRules({ maxLength: 10 });
    expect(fitName('short', ten)).toBe('short');
    const fitted = fitName('much_longer_than_ten', ten);
    expect(fitted).toMatch(/^m_[0-9a-f]{8}$/);
    expect(isValidName(fitted, ten)).toBe(true);
    // A maxLength at or below the suffix length is all hash.
    expect(fitName('abcdefghijkl', resolveNameRules({ maxLength: 4 }))).toMatch(/^[0-9a-f]{4}$/);
  });

  it('may still fail a stricter custom pattern, which the caller must check', () => {
    const lower = { pattern: /^[a-z]+$/, maxLength: 64 };
    const fitted = fitName('Get-Thing', lower);
    expect(fitted).toBe('Get-Thing');
    expect(isValidName(fitted, lower)).toBe(false);
  });
});
