/**
 * The compiled validators against zod itself: for every schema of every revision (and the tasks
 * and skills extensions), the same verdict, the same value and the same issues, on values drawn
 * from the schema with mistakes mixed in. And the generated data must be what the zod wire gives.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { formatWireIr } from '../scripts/wire-to-ir';
import type { IrCheck, IrNode } from '../src/compiled/ir';
import { validatorAt, WIRE_IR } from '../src/compiled/validator';
import { SUPPORTED_VERSIONS } from '../src/versions';
import { FEATURES_BY_VERSION } from '../src/wire/features';
import { buildWire } from '../src/wire/revision';
import { skillsSchemas } from '../src/wire/skills';
import { tasksSchemas } from '../src/wire/tasks';

const GENERATED = new URL('../src/compiled/wire-ir.json', import.meta.url);

/** Values a peer might send where something else was expected. */
const oddValue = fc.oneof(
  fc.constantFrom(undefined, null, NaN, Infinity, -0, 1.5, 2 ** 53, -(2 ** 53), '', [], {}),
  fc.constantFrom('\ud83d\ude00', 'a\ud800', true, 'x'.repeat(101)),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Lengths around the node's limits: under, at and just over each. */
function lengths(
  checks: readonly IrCheck[],
): fc.Arbitrary<{ minLength: number; maxLength: number }> {
  const around = [0, 1, 3];
  for (const c of checks) {
    if (c[0] === 'minLength' || c[0] === 'maxLength') around.push(c[1] - 1, c[1], c[1] + 1);
  }
  return fc
    .constantFrom(...around.filter((n) => n >= 0))
    .map((n) => ({ minLength: n, maxLength: n }));
}

/** Mostly valid values for `index`, now and then something wrong at any depth. */
function arbitraryFor(index: number, depth: number): fc.Arbitrary<unknown> {
  const node = WIRE_IR.nodes[index] as IrNode;
  const right = depth > 4 ? oddValue : fitting(node, depth + 1);
  return fc.oneof({ weight: 8, arbitrary: right }, { weight: 1, arbitrary: oddValue });
}

function fitting(node: IrNode, depth: number): fc.Arbitrary<unknown> {
  switch (node[0]) {
    case 'string': {
      const regex = node[1].find((c) => c[0] === 'regex');
      if (regex) return fc.stringMatching(new RegExp(regex[1], regex[2]));
      return lengths(node[1]).chain((size) => fc.string(size));
    }
    case 'number': {
      const int = node[1].some((c) => c[0] === 'int');
      const bounds = fc.constantFrom(-1, 0, 1, 0.5, 100, -0.5);
      return int
        ? fc.oneof(fc.integer({ min: -3, max: 200 }), bounds)
        : fc.oneof(fc.double(), bounds);
    }
    case 'boolean':
      return fc.boolean();
    case 'unknown':
      return fc.jsonValue({ maxDepth: 1 });
    case 'literal':
    case 'enum':
      return fc.constantFrom(...node[1]);
    case 'object': {
      const fields = Object.fromEntries(
        node[2].map(([key, child]) => [key, arbitraryFor(child, depth)]),
      );
      const extra = fc.dictionary(
        fc.constantFrom('extra', 'other'),
        fc.jsonValue({ maxDepth: 1 }),
        {
          maxKeys: 1,
        },
      );
      const required = node[2].filter(([, , optIn]) => optIn === 0).map(([key]) => key);
      const keys = node[2].map(([key]) => key);
      const drop =
        keys.length > 0 ? fc.option(fc.constantFrom(...keys), { freq: 6 }) : fc.constant(null);
      return fc
        .tuple(fc.record(fields, { requiredKeys: required }), extra, drop)
        .map(([known, more, dropped]) => {
          const value: Record<string, unknown> = { ...more, ...known };
          if (dropped !== null) delete value[dropped];
          return value;
        });
    }
    case 'array':
      return lengths(node[2]).chain((size) => fc.array(arbitraryFor(node[1], depth), size));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 3 }), arbitraryFor(node[1], depth), {
        maxKeys: 3,
      });
    case 'union':
      return fc.oneof(...node[1].map((i) => arbitraryFor(i, depth)));
    case 'dunion':
      return fc.oneof(...node[2].map((i) => arbitraryFor(i, depth)));
    case 'and':
      return fc
        .tuple(arbitraryFor(node[1], depth), arbitraryFor(node[2], depth))
        .map(([a, b]) => (isPlain(a) && isPlain(b) ? { ...a, ...b } : a));
    case 'optional':
      return fc.option(arbitraryFor(node[1], depth), { nil: undefined });
    case 'nullable':
      return fc.option(arbitraryFor(node[1], depth), { nil: null });
    case 'plainObject':
      return fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), {
        maxKeys: 2,
      });
  }
}

const isPlain = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

const issuesOf = (
  issues: readonly { code: string; path: readonly PropertyKey[]; message: string }[],
) => issues.map(({ code, path, message }) => ({ code, path: [...path], message }));

/** Every (zod schema, node) pair the run time compiles, each node once. */
function roots(): { name: string; schema: z.ZodType; node: number }[] {
  const seen = new Set<number>();
  const out: { name: string; schema: z.ZodType; node: number }[] = [];
  const add = (name: string, schema: z.ZodType | undefined, node: number | undefined) => {
    if (!schema || node === undefined || seen.has(node)) return;
    seen.add(node);
    out.push({ name, schema, node });
  };
  for (const version of SUPPORTED_VERSIONS) {
    const zod = buildWire(version, FEATURES_BY_VERSION[version]);
    const ir = WIRE_IR.revisions[version];
    for (const m of [...(ir?.methods ?? []), ...(ir?.inputRequests ?? [])]) {
      const source = zod.methods.get(m.method) ?? zod.inputRequests.get(m.method);
      add(`${version} ${m.method} params`, source?.params, m.params);
      add(`${version} ${m.method} result`, source?.result, m.result);
      add(`${version} ${m.method} complete`, source?.completeResult, m.completeResult);
    }
    for (const [name, node] of Object.entries(ir?.definitions ?? {}))
      add(`${version} ${name}`, zod.definitions[name], node);
  }
  const groups = { tasks: tasksSchemas, skills: skillsSchemas } as const;
  for (const [group, schemas] of Object.entries(groups)) {
    for (const [name, schema] of Object.entries(schemas))
      add(
        `${group} ${name}`,
        schema as z.ZodType,
        WIRE_IR.named[group as keyof typeof groups][name],
      );
  }
  return out;
}

/**
 * zod's answer, or `undefined` where zod throws instead of answering: an intersection whose
 * sides both hold NaN (NaN !== NaN, so zod finds them unmergeable). JSON has no NaN.
 */
function zodVerdict(schema: z.ZodType, value: unknown) {
  try {
    return schema.safeParse(value);
  } catch (error) {
    if (String(error).includes('Unmergable intersection')) return undefined;
    throw error;
  }
}

const verdicts = { valid: 0, invalid: 0 };

describe('compiled wire', () => {
  it('is generated from the zod wire as it is now (run `pnpm wire:ir` after a schema change)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(formatWireIr());
  });

  const all = roots();
  it('covers every revision and both extensions', () => {
    expect(all.length).toBeGreaterThan(250);
    for (const version of SUPPORTED_VERSIONS)
      expect(all.some((r) => r.name.startsWith(version))).toBe(true);
  });

  it.each(all.map((r) => [r.name, r] as const))(
    '%s: same verdict, value and issues as zod',
    (_, root) => {
      const compiled = validatorAt(root.node);
      fc.assert(
        fc.property(arbitraryFor(root.node, 0), (value) => {
          const expected = zodVerdict(root.schema, value);
          fc.pre(expected !== undefined);
          const actual = compiled.safeParse(value);
          verdicts[expected.success ? 'valid' : 'invalid']++;
          expect(actual.success).toBe(expected.success);
          if (expected.success) expect(actual.data).toEqual(expected.data);
          else
            expect(issuesOf(actual.error?.issues ?? [])).toEqual(issuesOf(expected.error.issues));
        }),
        { numRuns: 25 },
      );
    },
  );

  it('was compared on valid and invalid values alike', () => {
    const total = verdicts.valid + verdicts.invalid;
    expect(verdicts.valid / total).toBeGreaterThan(0.2);
    expect(verdicts.invalid / total).toBeGreaterThan(0.2);
  });
});
