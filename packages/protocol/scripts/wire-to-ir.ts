/**
 * Reads the zod wire into plain data (`compiled/ir.ts`). Build-time only: the generated
 * `compiled/wire-ir.json` is what the packages load. Anything zod can express that the run time
 * does not reproduce exactly throws here, so a new schema cannot silently validate differently.
 */
import type { z } from 'zod';
import type {
  IrCheck,
  IrField,
  IrLiteral,
  IrMethod,
  IrNode,
  IrRevision,
  WireIr,
} from '../src/compiled/ir';
import { isRecord } from '../src/util';
import { SUPPORTED_VERSIONS } from '../src/versions';
import { FEATURES_BY_VERSION } from '../src/wire/features';
import type { ZodMethod } from '../src/wire/method-spec';
import { buildWire } from '../src/wire/revision';
import { skillsSchemas } from '../src/wire/skills';
import { tasksSchemas } from '../src/wire/tasks';

type Internals = z.core.$ZodTypeInternals & { def: Record<string, unknown> };
const internals = (schema: unknown): Internals => (schema as { _zod: Internals })._zod;

function checkOf(check: unknown): IrCheck {
  const def = internals(check).def as Record<string, unknown>;
  if (def.abort === true) throw new Error('wire-to-ir: checks with abort are not supported');
  switch (def.check) {
    case 'number_format':
      if (def.format !== 'safeint') throw new Error(`wire-to-ir: number format ${def.format}`);
      return ['int'];
    case 'greater_than':
      return ['min', def.value as number, def.inclusive === true];
    case 'less_than':
      return ['max', def.value as number, def.inclusive === true];
    case 'min_length':
      return ['minLength', def.minimum as number];
    case 'max_length':
      return ['maxLength', def.maximum as number];
    case 'string_format': {
      if (def.format !== 'regex') throw new Error(`wire-to-ir: string format ${def.format}`);
      const pattern = def.pattern as RegExp;
      return ['regex', pattern.source, pattern.flags];
    }
    default:
      throw new Error(`wire-to-ir: unsupported check ${String(def.check)}`);
  }
}

function checksOf(def: Record<string, unknown>): IrCheck[] {
  const own = def.check === 'number_format' ? [checkOf({ _zod: { def } })] : [];
  return [...own, ...((def.checks as unknown[] | undefined) ?? []).map(checkOf)];
}

/** Collects nodes, each distinct structure once. */
class IrWriter {
  readonly nodes: IrNode[] = [];
  readonly #byKey = new Map<string, number>();
  readonly #bySchema = new Map<unknown, number>();
  readonly #visiting = new Set<unknown>();

  add(schema: unknown): number {
    const known = this.#bySchema.get(schema);
    if (known !== undefined) return known;
    if (this.#visiting.has(schema))
      throw new Error('wire-to-ir: recursive schemas are not supported');
    this.#visiting.add(schema);
    const node = this.#nodeOf(schema);
    this.#visiting.delete(schema);
    const key = JSON.stringify(node);
    let index = this.#byKey.get(key);
    if (index === undefined) {
      index = this.nodes.push(node) - 1;
      this.#byKey.set(key, index);
    }
    this.#bySchema.set(schema, index);
    return index;
  }

  #nodeOf(schema: unknown): IrNode {
    const zod = internals(schema);
    const def = zod.def;
    if (def.error !== undefined && def.type !== 'custom')
      throw new Error(`wire-to-ir: custom messages on ${String(def.type)} are not supported`);
    const checks = checksOf(def);
    const plain = (node: IrNode): IrNode => {
      if (checks.length > 0) throw new Error(`wire-to-ir: checks on ${String(def.type)}`);
      return node;
    };
    switch (def.type) {
      case 'string':
        return ['string', checks];
      case 'number':
        return ['number', checks];
      case 'array':
        return ['array', this.add(def.element), checks];
      case 'boolean':
        return plain(['boolean']);
      case 'unknown':
        return plain(['unknown']);
      case 'literal':
        return plain(['literal', def.values as IrLiteral[]]);
      case 'enum':
        return plain(['enum', [...(zod.values ?? [])] as IrLiteral[]]);
      case 'optional':
        return plain(['optional', this.add(def.innerType)]);
      case 'nullable':
        return plain(['nullable', this.add(def.innerType)]);
      case 'intersection':
        return plain(this.#intersection(def));
      case 'object':
        return plain(this.#object(def));
      case 'record':
        return plain(this.#record(def));
      case 'union':
        return plain(this.#union(def));
      case 'custom':
        return plain(this.#custom(def));
      default:
        throw new Error(`wire-to-ir: unsupported schema type ${String(def.type)}`);
    }
  }

  #object(def: Record<string, unknown>): IrNode {
    const catchall = def.catchall === undefined ? undefined : internals(def.catchall).def.type;
    // A stripping object would have to copy what it returns; no wire object drops keys.
    if (catchall !== 'unknown' && catchall !== 'never')
      throw new Error(
        `wire-to-ir: objects must be loose or strict, not ${String(catchall ?? 'strip')}`,
      );
    const mode = catchall === 'unknown' ? 'loose' : 'strict';
    const shape = def.shape as Record<string, unknown>;
    const fields: IrField[] = Object.keys(shape).map((key) => {
      const field = internals(shape[key]);
      if (field.optin === 'defaulted') throw new Error('wire-to-ir: defaults are not supported');
      return [key, this.add(shape[key]), field.optin ? 1 : 0, field.optout ? 1 : 0];
    });
    return ['object', mode, fields];
  }

  /** zod reconciles unknown keys across the two sides; loose sides never report any. */
  #intersection(def: Record<string, unknown>): IrNode {
    const sides = [this.add(def.left), this.add(def.right)] as const;
    for (const side of sides) {
      const node = this.nodes[side];
      if (node?.[0] === 'object' && node[1] === 'strict')
        throw new Error('wire-to-ir: intersections of strict objects are not supported');
    }
    return ['and', ...sides];
  }

  #record(def: Record<string, unknown>): IrNode {
    const key = internals(def.keyType).def;
    if (key.type !== 'string' || checksOf(key).length > 0 || def.mode === 'loose')
      throw new Error('wire-to-ir: records are supported with plain string keys only');
    return ['record', this.add(def.valueType)];
  }

  #union(def: Record<string, unknown>): IrNode {
    const options = (def.options as unknown[]).map((o) => this.add(o));
    if (typeof def.discriminator !== 'string') {
      if (def.inclusive === false)
        throw new Error('wire-to-ir: exclusive unions are not supported');
      return ['union', options];
    }
    const key = def.discriminator;
    const selects: (readonly [IrLiteral, number])[] = [];
    (def.options as unknown[]).forEach((option, i) => {
      const values = (internals(option) as { propValues?: Record<string, Set<unknown>> })
        .propValues?.[key];
      for (const value of values ?? []) {
        if (value === undefined || selects.some(([v]) => v === value))
          throw new Error(`wire-to-ir: discriminator ${key} must be distinct literals`);
        selects.push([value as IrLiteral, options[i] as number]);
      }
    });
    return ['dunion', key, options, selects];
  }

  #custom(def: Record<string, unknown>): IrNode {
    if (def.fn !== isRecord) throw new Error('wire-to-ir: custom schemas other than isRecord');
    const error = (def.error as (() => unknown) | undefined)?.();
    return ['plainObject', typeof error === 'string' ? error : 'Invalid input'];
  }
}

function methodOf(w: IrWriter, m: ZodMethod): IrMethod {
  return {
    method: m.method,
    kind: m.kind,
    sender: m.sender,
    definition: m.definition,
    params: w.add(m.params),
    ...(m.result ? { result: w.add(m.result) } : {}),
    ...(m.resultDefinition ? { resultDefinition: m.resultDefinition } : {}),
    ...(m.completeResult ? { completeResult: w.add(m.completeResult) } : {}),
    cacheable: m.cacheable,
    inputRequired: m.inputRequired,
  };
}

const named = (w: IrWriter, schemas: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, w.add(s)]));

/** The whole wire, every supported revision, as data. */
export function wireToIr(): WireIr {
  const w = new IrWriter();
  const revisions: Record<string, IrRevision> = {};
  for (const version of SUPPORTED_VERSIONS) {
    const wire = buildWire(version, FEATURES_BY_VERSION[version]);
    revisions[version] = {
      methods: [...wire.methods.values()].map((m) => methodOf(w, m)),
      inputRequests: [...wire.inputRequests.values()].map((m) => methodOf(w, m)),
      definitions: named(w, wire.definitions),
    };
  }
  return {
    nodes: w.nodes,
    revisions,
    named: { tasks: named(w, tasksSchemas), skills: named(w, skillsSchemas) },
  };
}

/** The generated file's text: one node per line, so a schema change reads as a small diff. */
export function formatWireIr(): string {
  const { nodes, revisions, named: groups } = wireToIr();
  const lines = nodes.map((node) => `    ${JSON.stringify(node)}`).join(',\n');
  const rest = JSON.stringify({ revisions, named: groups }, null, 2);
  return `{\n  "nodes": [\n${lines}\n  ],\n${rest.slice(2)}\n`;
}
