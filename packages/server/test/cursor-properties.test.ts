// Properties of pagination cursors: a cursor names a position, any replica holding the same
// items continues from it, an edited one never names another position, and no input throws
// anything but OperationError('invalid').
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OperationError } from '../src/operations/types';
import { decodeCursor, encodeCursor } from '../src/registry/cursor';
import { OrderedCollection } from '../src/registry/ordered-collection';

// Keys as registered: any string (names, URIs, non-ASCII, newlines, lone surrogates).
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const key = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: codeUnit }),
  fc.string(),
);
const list = fc.constantFrom('tools', 'prompts', 'resources', 'resourceTemplates');

function decodeOrInvalid(name: string, cursor: string): string | 'invalid' {
  try {
    return decodeCursor(name, cursor);
  } catch (error) {
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).kind).toBe('invalid');
    return 'invalid';
  }
}

function collection(keys: readonly string[]): OrderedCollection<string> {
  const c = new OrderedCollection<string>('tools');
  for (const k of keys) c.add(k, k);
  return c;
}

describe('cursors (properties)', () => {
  it('decode to the key they were made for, in their own list only', () => {
    fc.assert(
      fc.property(list, list, key, (own, other, last) => {
        const cursor = encodeCursor(own, last);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(own, cursor)).toBe(last);
        if (other !== own) expect(decodeOrInvalid(other, cursor)).toBe('invalid');
      }),
    );
  });

  it('never name another position once edited', () => {
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(list, key, fc.nat(), fc.nat(), (name, last, at, by) => {
        const cursor = encodeCursor(name, last);
        const i = at % cursor.length;
        const replaced = ALPHABET[(ALPHABET.indexOf(cursor[i] as string) + 1 + (by % 63)) % 64];
        const edited = `${cursor.slice(0, i)}${replaced}${cursor.slice(i + 1)}`;
        // Unused low bits of the last character may change without changing the bytes.
        expect([last, 'invalid']).toContain(decodeOrInvalid(name, edited));
        // Nor once cut short.
        expect(decodeOrInvalid(name, cursor.slice(0, i))).toBe('invalid');
      }),
    );
  });

  it('reject anything this server did not issue, with OperationError only', () => {
    fc.assert(
      fc.property(list, fc.string(), (name, garbage) => {
        const result = decodeOrInvalid(name, garbage);
        // A string that happens to be a valid cursor is one: it decodes to its key.
        if (result !== 'invalid') expect(encodeCursor(name, result)).toBe(garbage);
      }),
    );
  });

  it('walk every item exactly once, in order, across replicas and any page size', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        (keys, size) => {
          const replicas = [collection(keys), collection([...keys].reverse())];
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let page = 0; page <= keys.length; page++) {
            const result = (replicas[page % 2] as OrderedCollection<string>).page(cursor, size);
            seen.push(...result.entries);
            cursor = result.nextCursor;
            if (cursor === undefined) break;
          }
          expect(cursor).toBeUndefined();
          expect(seen).toEqual([...keys].sort());
        },
      ),
    );
  });

  it('skip and repeat nothing that stays, when items go away between pages', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (keys, size, removals) => {
          const items = collection(keys);
          const slots = new Map([...items.all()].map((slot) => [slot.key, slot]));
          const removed = new Set<string>();
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let page = 0; page <= keys.length; page++) {
            const result = items.page(cursor, size);
            seen.push(...result.entries);
            const gone = keys[(removals[page] ?? 0) % keys.length] as string;
            if (removals[page] !== undefined && !removed.has(gone)) {
              items.remove(slots.get(gone) as NonNullable<ReturnType<typeof slots.get>>);
              removed.add(gone);
            }
            cursor = result.nextCursor;
            if (cursor === undefined) break;
          }
          expect(new Set(seen).size).toBe(seen.length);
          expect(seen).toEqual([...seen].sort());
          for (const k of keys) if (!removed.has(k)) expect(seen).toContain(k);
        },
      ),
    );
  });

  // Found by these properties: a key with a lone surrogate (possible in a name or URI that
  // came from JSON) once went through UTF-8 as U+FFFD and the server refused its own cursor.
  it('round-trips a key that holds a lone surrogate', () => {
    expect(decodeCursor('resources', encodeCursor('resources', 'a\ud800b'))).toBe('a\ud800b');
  });
});
