/** The validators the packages run: zod's `safeParse` contract, without loading zod. */

import { buildChecks, type Check } from './build';
import type { WireIr } from './ir';
import { type OpenIssue, publicIssues, type WireIssue } from './issues';
import { protoPath, withoutProtoKeys } from './proto-keys';
import wireIrJson from './wire-ir.json';

export type { WireIssue } from './issues';

/**
 * The outcome of {@link Validator.safeParse}: shaped like zod's, so code written for a zod
 * schema reads a compiled one unchanged.
 *
 * @experimental
 */
export type SafeParseResult<T> =
  | { readonly success: true; readonly data: T; readonly error?: undefined }
  | {
      readonly success: false;
      readonly data?: undefined;
      readonly error: { readonly issues: WireIssue[] };
    };

/**
 * A wire schema compiled from its zod description at build time. A valid value is returned as
 * it came, not copied, unless, like zod, it leaves out an object's own `__proto__` key.
 *
 * @example
 * ```ts
 * import { getWire } from '@twofold/protocol/experimental';
 *
 * const params = getWire('2026-07-28').methods.get('tools/call')?.params;
 * const parsed = params?.safeParse({ name: 'add', _meta: {} });
 * if (parsed && !parsed.success) console.log(parsed.error.issues[0]?.message);
 * ```
 *
 * @experimental
 */
export interface Validator<T = unknown> {
  safeParse(value: unknown): SafeParseResult<T>;
}

class CompiledValidator<T> implements Validator<T> {
  readonly #index: number;
  #check: Check | undefined;

  constructor(index: number) {
    this.#index = index;
  }

  safeParse(value: unknown): SafeParseResult<T> {
    // Built on first use: a revision's table names every method, a program calls a few.
    this.#check ??= checkAt(this.#index);
    const check = this.#check;
    // Left over only when a check threw (a value nested past the stack).
    if (protoPath.length !== 0) protoPath.length = 0;
    if (check(value, null)) {
      if (protoPath.length === 0) return { success: true, data: value as T };
      const data = withoutProtoKeys(value, new Set(protoPath));
      protoPath.length = 0;
      return { success: true, data: data as T };
    }
    const out: OpenIssue[] = [];
    check(value, out);
    protoPath.length = 0;
    if (out.length === 0) out.push({ code: 'custom', path: [], message: 'Invalid input' });
    return { success: false, error: { issues: publicIssues(out) } };
  }
}

/** The generated data; every compiled validator shares its nodes. */
export const WIRE_IR = wireIrJson as unknown as WireIr;

let checks: ((index: number) => Check) | undefined;

function checkAt(index: number): Check {
  checks ??= buildChecks(WIRE_IR.nodes);
  return checks(index);
}

/** The validator of node `index` of the wire's data. */
export function validatorAt<T = unknown>(index: number): Validator<T> {
  return new CompiledValidator<T>(index);
}

/** Validators by name; each builds its checks on first use, so the unused ones cost little. */
export function validatorsByName(
  indices: Readonly<Record<string, number>>,
): Readonly<Record<string, Validator>> {
  const entries = Object.entries(indices).map(([name, index]) => [name, validatorAt(index)]);
  return Object.freeze(Object.fromEntries(entries));
}

/** The validators of the tasks or skills extension, typed by the caller. */
export function namedValidators<T extends Record<string, unknown>>(
  group: 'tasks' | 'skills',
): { readonly [K in keyof T]: Validator<T[K]> } {
  return validatorsByName(WIRE_IR.named[group]) as { readonly [K in keyof T]: Validator<T[K]> };
}
