/**
 * Turns the wire's data (`ir.ts`) into validators. Each node becomes one function that answers
 * whether a value fits; given an issue list it also says why, in zod's order and words. Valid
 * values are returned as they came (no copy): no wire schema transforms, drops or defaults. The one
 * key zod leaves out, an own `__proto__`, is noted here with the path down to it (`proto-keys.ts`).
 */
import type { IrCheck, IrField, IrLiteral, IrNode } from './ir';
import {
  anyHard,
  invalidType,
  invalidValue,
  type OpenIssue,
  outOfRange,
  prefix,
  unrecognizedKeys,
} from './issues';
import { protoPath } from './proto-keys';

/** Whether `x` fits; with `out`, every reason it does not is pushed there. */
export type Check = (x: unknown, out: OpenIssue[] | null) => boolean;

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** zod's `isPlainObject`, for records. */
function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (!isObject(x)) return false;
  const ctor = x.constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.hasOwn(proto, 'isPrototypeOf');
}

function codePoints(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

const lengthOf = (x: unknown): number =>
  typeof x === 'string' ? codePoints(x) : (x as { length: number }).length;
const lengthOrigin = (x: unknown) =>
  Array.isArray(x) ? 'array' : typeof x === 'string' ? 'string' : 'unknown';
const hasLength = (x: unknown) =>
  x !== null && x !== undefined && (x as { length?: unknown }).length !== undefined;

/** One refinement: `undefined` when it holds, else its issue. Length checks run on any value with a length. */
function refinement(check: IrCheck): { sized: boolean; test: (x: never) => OpenIssue | undefined } {
  switch (check[0]) {
    case 'int':
      return {
        sized: false,
        test: (x: number) => {
          if (!Number.isInteger(x)) return invalidType('int', x, false);
          if (Number.isSafeInteger(x)) return undefined;
          return x > 0
            ? outOfRange(true, 'int', Number.MAX_SAFE_INTEGER, true)
            : outOfRange(false, 'int', Number.MIN_SAFE_INTEGER, true);
        },
      };
    case 'min': {
      const [, limit, inclusive] = check;
      return {
        sized: false,
        test: (x: number) =>
          (inclusive ? x >= limit : x > limit)
            ? undefined
            : outOfRange(false, 'number', limit, inclusive),
      };
    }
    case 'max': {
      const [, limit, inclusive] = check;
      return {
        sized: false,
        test: (x: number) =>
          (inclusive ? x <= limit : x < limit)
            ? undefined
            : outOfRange(true, 'number', limit, inclusive),
      };
    }
    case 'minLength': {
      const limit = check[1];
      return {
        sized: true,
        test: (x: string) =>
          lengthOf(x) >= limit ? undefined : outOfRange(false, lengthOrigin(x), limit, true),
      };
    }
    case 'maxLength': {
      const limit = check[1];
      return {
        sized: true,
        test: (x: string) =>
          lengthOf(x) <= limit ? undefined : outOfRange(true, lengthOrigin(x), limit, true),
      };
    }
    case 'regex': {
      const pattern = new RegExp(check[1], check[2]);
      const text = pattern.toString();
      return {
        sized: false,
        test: (x: string) => {
          pattern.lastIndex = 0;
          if (pattern.test(x)) return undefined;
          return {
            code: 'invalid_format',
            path: [],
            message: `Invalid string: must match pattern ${text}`,
            soft: true,
          };
        },
      };
    }
  }
}

/** A type test followed by refinements, run the way zod runs a schema's checks. */
function typed(expected: string, is: (x: unknown) => boolean, checks: readonly IrCheck[]): Check {
  if (checks.length === 0) {
    return (x, out) => {
      if (is(x)) return true;
      out?.push(invalidType(expected, x));
      return false;
    };
  }
  const steps = checks.map(refinement);
  return (x, out) => {
    const start = out?.length ?? 0;
    let hard = !is(x);
    let stopped = false;
    if (hard) {
      if (!out) return false;
      out.push(invalidType(expected, x));
    }
    for (const step of steps) {
      if (step.sized ? stopped || !hasLength(x) : hard) continue;
      const issue = step.test(x as never);
      if (!issue) continue;
      if (!out) return false;
      out.push(issue);
      if (issue.soft !== true) hard = true;
      if (issue.soft === false) stopped = true;
    }
    return out ? out.length === start : true;
  };
}

function objectCheck(
  mode: 'loose' | 'strict',
  fields: readonly IrField[],
  at: (i: number) => Check,
): Check {
  const compiled = fields.map(([key, node, optIn, optOut]) => ({
    key,
    check: at(node),
    skipAbsent: optIn === 1 && optOut === 1,
    mustExist: optIn === 0,
  }));
  const known = new Set(fields.map(([key]) => key));
  return (x, out) => {
    if (!isObject(x)) {
      out?.push(invalidType('object', x));
      return false;
    }
    const start = out?.length ?? 0;
    const marks = protoPath.length;
    for (const f of compiled) {
      const present = f.key in x;
      if (!present && f.skipAbsent) continue;
      const before = out?.length ?? 0;
      if (!f.check(x[f.key], out)) {
        if (!out) return false;
        prefix(out, before, f.key);
      } else if (!present && f.mustExist) {
        if (!out) return false;
        out.push({ ...invalidType('nonoptional', undefined), path: [f.key] });
      }
    }
    if (mode === 'strict') {
      const extra = Object.keys(x).filter((k) => !known.has(k));
      if (extra.length > 0) {
        if (!out) return false;
        out.push(unrecognizedKeys(extra));
      }
    }
    if (protoPath.length !== marks || Object.hasOwn(x, '__proto__')) protoPath.push(x);
    return out ? out.length === start : true;
  };
}

function arrayCheck(element: Check, checks: readonly IrCheck[]): Check {
  const shape = typed('array', Array.isArray, checks);
  const caps = checks.flatMap((c) => (c[0] === 'maxLength' ? [c[1]] : []));
  return (x, out) => {
    const start = out?.length ?? 0;
    // As zod does, an array over its cap is rejected for its size alone, its items unread.
    const cap = caps.find((limit) => Array.isArray(x) && x.length > limit);
    if (cap !== undefined) {
      out?.push({ ...outOfRange(true, 'array', cap, true), soft: false });
      return false;
    }
    if (Array.isArray(x)) {
      const marks = protoPath.length;
      for (let i = 0; i < x.length; i++) {
        const before = out?.length ?? 0;
        if (element(x[i], out)) continue;
        if (!out) return false;
        prefix(out, before, i);
      }
      if (protoPath.length !== marks) protoPath.push(x);
    }
    return shape(x, out) && (out ? out.length === start : true);
  };
}

function recordCheck(value: Check): Check {
  return (x, out) => {
    if (!isPlainObject(x)) {
      out?.push(invalidType('record', x));
      return false;
    }
    const start = out?.length ?? 0;
    const marks = protoPath.length;
    let ownsProto = false;
    for (const key of Object.keys(x)) {
      if (key === '__proto__') {
        ownsProto = true;
        continue;
      }
      const before = out?.length ?? 0;
      if (value(x[key], out)) continue;
      if (!out) return false;
      prefix(out, before, key);
    }
    if (ownsProto || protoPath.length !== marks) protoPath.push(x);
    return out ? out.length === start : true;
  };
}

function unionCheck(options: readonly Check[]): Check {
  if (options.length === 1) return options[0] as Check;
  return (x, out) => {
    const marks = protoPath.length;
    for (const option of options) {
      if (option(x, null)) return true;
      if (protoPath.length !== marks) protoPath.length = marks;
    }
    if (!out) return false;
    const tried = options.map((option) => {
      const issues: OpenIssue[] = [];
      option(x, issues);
      return issues;
    });
    const soft = tried.filter((issues) => !anyHard(issues));
    if (soft.length === 1) out.push(...(soft[0] as OpenIssue[]));
    else out.push({ code: 'invalid_union', path: [], message: 'Invalid input' });
    return false;
  };
}

function discriminatedCheck(key: string, selects: ReadonlyMap<IrLiteral, Check>): Check {
  const expected = [...selects.keys()].map((v) => `'${String(v)}'`).join(' | ');
  return (x, out) => {
    if (!isObject(x)) {
      out?.push(invalidType('object', x));
      return false;
    }
    const option = selects.get(x[key] as IrLiteral);
    if (option) return option(x, out);
    out?.push({
      code: 'invalid_union',
      path: [key],
      message: `Invalid discriminator value. Expected ${expected}`,
    });
    return false;
  };
}

function literalCheck(values: readonly IrLiteral[]): Check {
  return (x, out) => {
    if (values.includes(x as IrLiteral)) return true;
    out?.push(invalidValue(values));
    return false;
  };
}

/** Every node of `nodes` as a check, each built on first use. */
export function buildChecks(nodes: readonly IrNode[]): (index: number) => Check {
  const built: (Check | undefined)[] = [];
  const at = (index: number): Check => {
    let check = built[index];
    if (!check) {
      // A forwarding stub first, so a node can be referred to while its own check is built.
      const ref: Check = (x, out) => (built[index] as Check)(x, out);
      built[index] = ref;
      check = make(nodes[index] as IrNode, at);
      built[index] = check;
    }
    return check;
  };
  return at;
}

function make(node: IrNode, at: (i: number) => Check): Check {
  switch (node[0]) {
    case 'string':
      return typed('string', (x) => typeof x === 'string', node[1]);
    case 'number':
      return typed('number', (x) => typeof x === 'number' && Number.isFinite(x), node[1]);
    case 'boolean':
      return typed('boolean', (x) => typeof x === 'boolean', []);
    case 'unknown':
      return () => true;
    case 'literal':
    case 'enum':
      return literalCheck(node[1]);
    case 'object':
      return objectCheck(node[1], node[2], at);
    case 'array':
      return arrayCheck(at(node[1]), node[2]);
    case 'record':
      return recordCheck(at(node[1]));
    case 'union':
      return unionCheck(node[1].map(at));
    case 'dunion':
      return discriminatedCheck(node[1], new Map(node[3].map(([v, i]) => [v, at(i)])));
    case 'and': {
      const left = at(node[1]);
      const right = at(node[2]);
      return (x, out) =>
        out ? [left(x, out), right(x, out)].every(Boolean) : left(x, null) && right(x, null);
    }
    case 'optional': {
      const inner = at(node[1]);
      return (x, out) => x === undefined || inner(x, out);
    }
    case 'nullable': {
      const inner = at(node[1]);
      return (x, out) => x === null || inner(x, out);
    }
    case 'plainObject': {
      const message = node[1];
      return (x, out) => {
        if (isObject(x)) return true;
        out?.push({ code: 'custom', path: [], message });
        return false;
      };
    }
  }
}
