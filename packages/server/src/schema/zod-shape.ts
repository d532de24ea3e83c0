/**
 * A raw zod shape (`{ city: z.string() }`) read as `z.object(shape)` reads it, through each
 * member's Standard Schema interface: the server never loads zod itself, so a program that
 * does not use zod does not pay for it, and one that does uses its own copy.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { SchemaIo } from './types';

type Member = {
  readonly '~standard': StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  /** zod 4 internals: whether the member may be absent on the way in / out. */
  readonly _zod: { readonly optin?: string; readonly optout?: string };
};

/** The Standard Schema of `z.object(shape)`: validation and JSON Schema. */
export type ShapeSchema = StandardSchemaV1.Props & StandardJSONSchemaV1.Props;

function isZod4(input: unknown): input is Member {
  return typeof input === 'object' && input !== null && '_zod' in input && '~standard' in input;
}

/**
 * Whether `input` is a raw zod shape (`{ a: z.string() }`, the shorthand for
 * `z.object({ a: z.string() })`): the rule registrations and the registry adapter share.
 *
 * @experimental
 */
export function isZodShape(input: unknown): input is Readonly<Record<string, Member>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const values = Object.values(input);
  return values.length > 0 && values.every(isZod4);
}

type Outcome = StandardSchemaV1.Result<unknown>;

function prefixed(
  key: string,
  issues: readonly StandardSchemaV1.Issue[],
): StandardSchemaV1.Issue[] {
  return issues.map((issue) => ({ ...issue, path: [key, ...(issue.path ?? [])] }));
}

/** One key, as zod's object does it: absent optional keys skipped, required ones reported. */
function settle(
  key: string,
  member: Member,
  present: boolean,
  outcome: Outcome,
  into: { value: Record<string, unknown>; issues: StandardSchemaV1.Issue[] },
): void {
  const { optin, optout } = member._zod;
  if (outcome.issues) {
    if (!present && optin !== undefined && optout === 'optional') return;
    into.issues.push(...prefixed(key, outcome.issues));
    return;
  }
  if (!present && optin === undefined) {
    into.issues.push({
      message: 'Invalid input: expected nonoptional, received undefined',
      path: [key],
    });
    return;
  }
  if (outcome.value !== undefined || present || (optin === 'defaulted' && optout !== 'optional'))
    into.value[key] = outcome.value;
}

function validateShape(shape: Readonly<Record<string, Member>>, value: unknown) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const received = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    return { issues: [{ message: `Invalid input: expected object, received ${received}` }] };
  }
  const input = value as Record<string, unknown>;
  const into = { value: {} as Record<string, unknown>, issues: [] as StandardSchemaV1.Issue[] };
  const pending: Promise<void>[] = [];
  for (const [key, member] of Object.entries(shape)) {
    const present = key in input;
    const { optin, optout } = member._zod;
    if (!present && optin === 'optional' && optout === 'optional') continue;
    const outcome = member['~standard'].validate(input[key]);
    if (outcome instanceof Promise) {
      pending.push(outcome.then((done) => settle(key, member, present, done, into)));
    } else {
      settle(key, member, present, outcome, into);
    }
  }
  const finish = (): Outcome =>
    into.issues.length > 0 ? { issues: into.issues } : { value: into.value };
  return pending.length > 0 ? Promise.all(pending).then(finish) : finish();
}

function jsonSchemaOf(
  shape: Readonly<Record<string, Member>>,
  io: SchemaIo,
  options: StandardJSONSchemaV1.Options,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const defs: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [key, member] of Object.entries(shape)) {
    const converter = member['~standard'].jsonSchema;
    if (!converter) throw new Error(`member "${key}" cannot produce JSON Schema`);
    const { $schema, $defs, ...own } = converter[io](options) as Record<string, unknown>;
    properties[key] = own;
    Object.assign(defs, $defs);
    const optional = io === 'input' ? member._zod.optin : member._zod.optout;
    if (optional === undefined) required.push(key);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(io === 'output' ? { additionalProperties: false } : {}),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

/** `z.object(shape)`'s Standard Schema, from the members' own. */
export function shapeSchema(shape: Readonly<Record<string, Member>>): ShapeSchema {
  return {
    version: 1,
    vendor: 'zod',
    validate: (value) => validateShape(shape, value),
    jsonSchema: {
      input: (options) => jsonSchemaOf(shape, 'input', options),
      output: (options) => jsonSchemaOf(shape, 'output', options),
    },
  };
}
