import { describe, expect, it } from 'vitest';
import { getWire } from '../src/registry';
import { readExamples, specAvailable } from './spec-files';

const wire = getWire('2026-07-28');
const examples = specAvailable ? readExamples('2026-07-28') : [];

describe.skipIf(!specAvailable)('official 2026-07-28 examples', () => {
  it('are all present (129 files in 88 definitions)', () => {
    expect(examples).toHaveLength(129);
    expect(new Set(examples.map((e) => e.type)).size).toBe(88);
  });

  it('each name a definition twofold has', () => {
    const missing = [...new Set(examples.map((e) => e.type))].filter(
      (t) => !(t in wire.definitions),
    );
    expect(missing).toEqual([]);
  });

  it.each(examples.map((e) => [`${e.type}/${e.name}`, e] as const))('%s parses', (_, example) => {
    const schema = wire.definitions[example.type];
    const parsed = schema?.safeParse(example.value);
    expect(parsed?.error?.issues ?? []).toEqual([]);
    // Loose objects keep every field: parsing loses nothing.
    expect(parsed?.data).toEqual(example.value);
  });
});

/** Mutations that must make any example invalid, where they apply. */
function mutations(type: string, value: unknown): { what: string; value: unknown }[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  const out: { what: string; value: unknown }[] = [];
  const declared = Object.keys(defs[type]?.properties ?? {});
  for (const key of Object.keys(record).filter((k) => declared.includes(k))) {
    // An array where anything else is expected, a string where an array is: never valid.
    const wrong = Array.isArray(record[key]) ? 'not-an-array' : [null];
    out.push({ what: `${key} with a wrong type`, value: { ...record, [key]: wrong } });
  }
  return out;
}

describe.skipIf(!specAvailable)('mutated 2026-07-28 examples', () => {
  it.each(examples.map((e) => [`${e.type}/${e.name}`, e] as const))(
    '%s: required fields removed are rejected',
    (_, example) => {
      const schema = wire.definitions[example.type];
      // Cache hints are read leniently (a missing hint means "stale at once"): see cacheHints.
      const required = requiredKeys(example.type).filter(
        (k) => k !== 'ttlMs' && k !== 'cacheScope',
      );
      for (const key of required) {
        if (typeof example.value !== 'object' || example.value === null) continue;
        const { [key]: _removed, ...rest } = example.value as Record<string, unknown>;
        expect(schema?.safeParse(rest).success, `without ${key}`).toBe(false);
      }
    },
  );

  it.each(examples.map((e) => [`${e.type}/${e.name}`, e] as const))(
    '%s: fields of a wrong type are rejected',
    (_, example) => {
      const schema = wire.definitions[example.type];
      for (const mutation of mutations(example.type, example.value)) {
        if (acceptsAnything(example.type, mutation.what)) continue;
        expect(schema?.safeParse(mutation.value).success, mutation.what).toBe(false);
      }
    },
  );
});

import { readSchema } from './spec-files';

const defs = specAvailable
  ? ((readSchema('2026-07-28').$defs ?? {}) as Record<
      string,
      { required?: string[]; properties?: Record<string, unknown> }
    >)
  : {};

function requiredKeys(type: string): string[] {
  return defs[type]?.required ?? [];
}

/** Fields whose schema accepts any JSON value (so no wrong type exists). */
function acceptsAnything(type: string, what: string): boolean {
  const key = what.split(' ')[0] ?? '';
  const prop = defs[type]?.properties?.[key];
  return (
    prop !== undefined &&
    typeof prop === 'object' &&
    prop !== null &&
    Object.keys(prop).every((k) => k === 'description')
  );
}
