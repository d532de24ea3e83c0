/**
 * What a zod 4 schema says that JSON Schema cannot: found while zod converts it, through its
 * `unrepresentable` handler (types with no JSON Schema form) and its `override` hook (custom
 * checks, transforms and pipes, which convert but describe less than zod enforces).
 */
import { toJSONSchema, type z } from 'zod';
import { escapePointer } from './pointer';
import type { SchemaLoss } from './reports';

type Io = 'input' | 'output';

// Loose views of zod's internals: enough to name what a node does.
interface ZodNode {
  _zod: { def: ZodDef };
}
interface ZodDef {
  type: string;
  checks?: { _zod: { def: { check: string } } }[];
  in?: ZodNode;
  out?: ZodNode;
}

const UNREPRESENTABLE: Readonly<Record<string, string>> = {
  date: 'z.date(): a Date cannot travel as JSON; any value is accepted by the JSON Schema',
  bigint: 'z.bigint(): a BigInt cannot travel as JSON; any value is accepted by the JSON Schema',
  map: 'z.map(): a Map cannot travel as JSON; any value is accepted by the JSON Schema',
  set: 'z.set(): a Set cannot travel as JSON; any value is accepted by the JSON Schema',
  symbol: 'z.symbol(): not JSON; any value is accepted by the JSON Schema',
  function: 'z.function(): not JSON; any value is accepted by the JSON Schema',
  custom: 'z.custom(): a custom type; any value is accepted by the JSON Schema',
  undefined: 'z.undefined(): not JSON; any value is accepted by the JSON Schema',
  void: 'z.void(): not JSON; any value is accepted by the JSON Schema',
  nan: 'z.nan(): NaN is not JSON; any value is accepted by the JSON Schema',
  transform:
    'transform: its result has no JSON Schema; any value is described (the tool still checks it)',
};

function toPointer(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${escapePointer(String(segment))}`).join('');
}

/** The losses of one node that converted (checks zod runs that the JSON Schema omits). */
function describedLosses(def: ZodDef, io: Io): string[] {
  const found: string[] = [];
  for (const check of def.checks ?? []) {
    const kind = check._zod.def.check;
    if (kind === 'custom') {
      found.push('refine/superRefine: a custom check the JSON Schema does not describe');
    } else if (kind === 'overwrite') {
      found.push('a normalising step (e.g. trim, toLowerCase) the JSON Schema does not describe');
    }
  }
  if (def.type === 'pipe') {
    const inner = def.in?._zod.def.type;
    const outer = def.out?._zod.def.type;
    if (inner === 'transform') {
      found.push('preprocess: the value is transformed before it is checked');
    } else if (outer === 'transform') {
      if (io === 'input') found.push('transform: the tool receives a transformed value');
    } else {
      const hidden = io === 'input' ? 'later' : 'earlier';
      found.push(`pipe: the checks of the ${hidden} stage are not described`);
    }
  } else if (def.type === 'catch') {
    found.push('catch: invalid values are replaced by a fallback instead of rejected');
  } else if (def.type === 'promise') {
    found.push('z.promise(): the awaited value is described, not the promise');
  }
  return found;
}

/** Strips zod's dialect marker: 2020-12 is the default everywhere these schemas go. */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.$schema !== 'https://json-schema.org/draft/2020-12/schema') return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * Converts a zod 4 schema to JSON Schema 2020-12, never throwing for unrepresentable parts
 * (they become `{}`), and lists everything the result does not say.
 */
export function zodToJsonSchema(
  schema: z.core.$ZodType,
  io: Io,
): { jsonSchema: Record<string, unknown>; losses: SchemaLoss[] } {
  const losses: SchemaLoss[] = [];
  const seen = new Set<string>();
  const add = (path: readonly (string | number)[], what: string): void => {
    const pointer = toPointer(path);
    const key = `${pointer}\u0000${what}`;
    if (seen.has(key)) return;
    seen.add(key);
    losses.push({ path: pointer, what });
  };
  const produced = toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: (context) => {
      const type = (context.zodSchema as unknown as ZodNode)._zod.def.type;
      add(context.path, UNREPRESENTABLE[type] ?? `${type}: ${context.message}`);
      return 'any';
    },
    override: (context) => {
      const def = (context.zodSchema as unknown as ZodNode)._zod.def;
      for (const what of describedLosses(def, io)) add(context.path, what);
    },
  }) as Record<string, unknown>;
  // zod reports from the leaves up; the report reads better in document order.
  losses.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { jsonSchema: withoutDialect(produced), losses };
}
