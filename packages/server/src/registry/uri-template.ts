/**
 * Matching concrete URIs against RFC 6570 URI templates (expansion is not needed: clients
 * expand). Supported: every operator of levels 1–3 — `{var}`, `{+var}`, `{#var}`, `{.var}`,
 * `{/var}`, `{;var}`, `{?var}`, `{&var}` — with several variables per expression, plus the
 * level-4 modifiers `:N` (prefix) and `*` (explode, which yields a list).
 *
 * Matching rules (RFC 6570 defines expansion only, so these are ours):
 * - values are percent-decoded; an exploded variable yields `string[]`, any other a `string`;
 * - `{var}` and `{+var}` must match at least one character; `{var}` stops at `/`, `?` and `#`,
 *   `{+var}` and `{#var}` may span them;
 * - `.`, `/` and `;` expressions are optional as a whole, like their expansion of undefined
 *   variables; an absent variable is left out of the result;
 * - query parameters (`{?…}`, `{&…}`) and `;` parameters are matched by name, in any order;
 *   unknown parameters are ignored;
 * - a list in a non-exploded single variable (`a,b`) stays one string.
 */

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface VarSpec {
  name: string;
  explode: boolean;
  prefix?: number;
}

interface Expression {
  operator: Operator;
  vars: VarSpec[];
}

/** Variables of a matched URI. */
export type TemplateVariables = Record<string, string | string[]>;

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
const VARNAME_RE = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const VARSPEC_RE = /^(.+?)(?:(\*)|:([1-9][0-9]{0,3}))?$/;
// Characters a value of each positional operator may hold, besides percent-escapes.
const VALUE_CLASS: Record<'' | '+' | '#' | '.' | '/', string> = {
  '': '[^/?#%]',
  '+': '[^%]',
  '#': '[^%]',
  '.': '[^/?#.%]',
  '/': '[^/?#%]',
};
const NAMED_SEPARATOR = { ';': ';', '?': '&', '&': '&' } as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function parseExpression(body: string, template: string): Expression {
  const first = body.charAt(0);
  if (RESERVED_OPERATORS.has(first)) {
    throw new TypeError(
      `URI template ${JSON.stringify(template)}: operator "${first}" is reserved`,
    );
  }
  const operator = (OPERATORS.has(first) ? first : '') as Operator;
  const list = operator === '' ? body : body.slice(1);
  const vars = list.split(',').map((spec): VarSpec => {
    const parts = VARSPEC_RE.exec(spec);
    const name = parts?.[1];
    if (parts === null || name === undefined || !VARNAME_RE.test(name)) {
      throw new TypeError(
        `URI template ${JSON.stringify(template)}: invalid variable ${JSON.stringify(spec)}`,
      );
    }
    return parts[3] === undefined
      ? { name, explode: parts[2] === '*' }
      : { name, explode: false, prefix: Number(parts[3]) };
  });
  return { operator, vars };
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A parsed template; `match` returns the variables of a URI it describes, else `undefined`. */
export class UriTemplate {
  /** How many literal characters the template has: more means more specific. */
  readonly literalLength: number;
  private readonly regex: RegExp;
  private readonly expressions: Expression[] = [];

  constructor(readonly template: string) {
    let pattern = '';
    let literalLength = 0;
    for (const token of template.split(/(\{[^{}]*\})/)) {
      if (token.startsWith('{') && token.endsWith('}') && token.length > 2) {
        const expression = parseExpression(token.slice(1, -1), template);
        this.expressions.push(expression);
        pattern += patternOf(expression);
      } else if (token.includes('{') || token.includes('}')) {
        throw new TypeError(`URI template ${JSON.stringify(template)}: unbalanced braces`);
      } else {
        literalLength += token.length;
        pattern += escapeRegExp(token);
      }
    }
    this.literalLength = literalLength;
    this.regex = new RegExp(`^${pattern}$`);
  }

  /** The names of the template's variables, in order of appearance. */
  get variableNames(): string[] {
    return this.expressions.flatMap((expression) => expression.vars.map((spec) => spec.name));
  }

  match(uri: string): TemplateVariables | undefined {
    const found = this.regex.exec(uri);
    if (found === null) return undefined;
    const variables: TemplateVariables = {};
    const named = new Map<string, string[]>();
    const namedVars: VarSpec[] = [];
    for (const [index, expression] of this.expressions.entries()) {
      const chunk = found[index + 1];
      const { operator } = expression;
      const isNamed = operator === ';' || operator === '?' || operator === '&';
      // Named parameters are looked up across all named expressions: one may hold another's.
      if (isNamed) namedVars.push(...expression.vars);
      if (chunk === undefined || (chunk === '' && operator !== '#')) continue;
      if (isNamed) {
        collectPairs(operator === ';' ? chunk.slice(1) : chunk, NAMED_SEPARATOR[operator], named);
      } else if (!assignPositional(expression, chunk, variables)) {
        return undefined;
      }
    }
    for (const spec of namedVars) {
      const values = named.get(spec.name);
      if (values === undefined) continue;
      const decoded = values.map(decode);
      if (decoded.some((value) => value === undefined)) return undefined;
      const strings = decoded as string[];
      variables[spec.name] = spec.explode ? strings : (strings[0] as string);
    }
    return variables;
  }
}

/** The regex of one expression, with exactly one capture group. */
function patternOf({ operator, vars }: Expression): string {
  if (operator === ';') return '((?:;[^/?#]*)?)';
  if (operator === '?') return '(?:\\?([^#]*))?';
  if (operator === '&') return '(?:&([^#]*))?';
  const unit = `(?:%[0-9A-Fa-f]{2}|${VALUE_CLASS[operator]})`;
  const single = vars.length === 1 && vars[0]?.explode === false ? vars[0] : undefined;
  const required = operator === '' || operator === '+';
  const count =
    single?.prefix === undefined
      ? required
        ? '+'
        : '*'
      : `{${required ? 1 : 0},${single.prefix}}`;
  if (operator === '' || operator === '+') return `(${unit}${count})`;
  // `#` leads once; its variables are comma-separated like `{var}`'s.
  if (operator === '#') return `(?:#(${unit}${single === undefined ? '*' : count}))?`;
  const lead = escapeRegExp(operator);
  if (single !== undefined) return `(?:${lead}(${unit}${count}))?`;
  return `((?:${lead}${unit}*)*)`;
}

function collectPairs(chunk: string, separator: string, into: Map<string, string[]>): void {
  for (const pair of chunk.split(separator)) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? '' : pair.slice(equals + 1);
    const values = into.get(name);
    if (values === undefined) into.set(name, [value]);
    else values.push(value);
  }
}

/** Splits a positional chunk among the expression's variables; `false` when it cannot. */
function assignPositional(
  { operator, vars }: Expression,
  chunk: string,
  into: TemplateVariables,
): boolean {
  const single = vars.length === 1 && vars[0]?.explode === false ? vars[0] : undefined;
  if (single !== undefined) {
    const value = decode(chunk);
    if (value === undefined) return false;
    into[single.name] = value;
    return true;
  }
  const separator = operator === '.' || operator === '/' ? operator : ',';
  const body = operator === '.' || operator === '/' ? chunk.slice(1) : chunk;
  const parts = body.split(separator);
  for (const [index, spec] of vars.entries()) {
    if (index >= parts.length) break;
    const isLast = index === vars.length - 1;
    const raw = spec.explode && isLast ? parts.slice(index) : [parts[index] as string];
    const values = raw.map(decode);
    const unusable = (value: string | undefined) =>
      value === undefined || (spec.prefix !== undefined && value.length > spec.prefix);
    if (values.some(unusable)) return false;
    into[spec.name] = spec.explode ? (values as string[]) : (values[0] as string);
  }
  return parts.length <= vars.length || vars[vars.length - 1]?.explode === true;
}
