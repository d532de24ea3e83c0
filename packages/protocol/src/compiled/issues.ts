/**
 * Validation issues worded as zod's English messages, so errors read the same whether the wire
 * was checked by zod or by the compiled validators.
 */

/**
 * One thing wrong with a value: where (keys and indices from the root), what, and a message.
 *
 * @experimental
 */
export interface WireIssue {
  readonly code: string;
  readonly path: PropertyKey[];
  readonly message: string;
}

/** An issue while it is collected: `soft` issues (zod's `continue`) do not end a union option. */
export interface OpenIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  /** `true`: soft; `false`: stops the remaining checks; `undefined`: hard. */
  soft?: boolean;
}

function receivedType(input: unknown): string {
  if (typeof input === 'number') return Number.isFinite(input) ? 'number' : String(input);
  if (typeof input !== 'object') return typeof input;
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  const proto = Object.getPrototypeOf(input);
  const ctor = (input as { constructor?: { name?: string } }).constructor;
  return proto !== Object.prototype && ctor ? String(ctor.name) : 'object';
}

export function literalText(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

export function invalidType(expected: string, input: unknown, soft?: boolean): OpenIssue {
  const message = `Invalid input: expected ${expected}, received ${receivedType(input)}`;
  return soft === undefined
    ? { code: 'invalid_type', path: [], message }
    : { code: 'invalid_type', path: [], message, soft };
}

export function invalidValue(values: readonly unknown[]): OpenIssue {
  const message =
    values.length === 1
      ? `Invalid input: expected ${literalText(values[0])}`
      : `Invalid option: expected one of ${values.map(literalText).join('|')}`;
  return { code: 'invalid_value', path: [], message };
}

const UNITS: Readonly<Record<string, string>> = { string: 'characters', array: 'items' };

/** `too_big` / `too_small`: sizes for strings and arrays, values for numbers. */
export function outOfRange(
  big: boolean,
  origin: string,
  limit: number,
  inclusive: boolean,
): OpenIssue {
  const adj = (big ? '<' : '>') + (inclusive ? '=' : '');
  const unit = UNITS[origin];
  const what = unit ? `to have ${adj}${limit} ${unit}` : `to be ${adj}${limit}`;
  return {
    code: big ? 'too_big' : 'too_small',
    path: [],
    message: `Too ${big ? 'big' : 'small'}: expected ${origin} ${what}`,
    soft: true,
  };
}

export function unrecognizedKeys(keys: readonly string[]): OpenIssue {
  const s = keys.length > 1 ? 's' : '';
  return {
    code: 'unrecognized_keys',
    path: [],
    message: `Unrecognized key${s}: ${keys.map(literalText).join(', ')}`,
    soft: true,
  };
}

/** Prefixes the path of every issue from `start` on with `key`. */
export function prefix(out: OpenIssue[], start: number, key: PropertyKey): void {
  for (let i = start; i < out.length; i++) (out[i] as OpenIssue).path.unshift(key);
}

/** Whether any of `issues` stops a union option (zod's `aborted`). */
export function anyHard(issues: readonly OpenIssue[]): boolean {
  return issues.some((issue) => issue.soft !== true);
}

export function publicIssues(out: readonly OpenIssue[]): WireIssue[] {
  return out.map(({ code, path, message }) => ({ code, path, message }));
}
