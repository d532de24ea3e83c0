/**
 * Tool and prompt arguments from the command line: `key=value` words coerced by the input
 * schema (numbers, booleans, arrays and objects parsed; strings kept as written), or a JSON
 * object from `--args` / `--args-file`.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT, usageError } from './exit-codes';

type Schema = Record<string, unknown>;

/** The arguments of a call, from `--args`, `--args-file` or `key=value` words. */
export async function callArguments(
  words: readonly string[],
  options: { args?: string | undefined; argsFile?: string | undefined; cwd: string },
  schema: Schema | undefined,
): Promise<Record<string, unknown>> {
  const sources = [options.args, options.argsFile, words.length > 0 ? words : undefined];
  if (sources.filter((s) => s !== undefined).length > 1) {
    throw usageError('give the arguments one way: key=value words, --args or --args-file');
  }
  if (options.args !== undefined) return jsonObject(options.args, '--args');
  if (options.argsFile !== undefined) {
    const file = resolve(options.cwd, options.argsFile);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new CliError(
        EXIT.dataError,
        `--args-file ${options.argsFile}: ${(error as Error).message}`,
      );
    }
    return jsonObject(text, `--args-file ${options.argsFile}`);
  }
  return keyValues(words, schema);
}

/** `key=value` words, each value coerced by the schema's property type. */
export function keyValues(
  words: readonly string[],
  schema: Schema | undefined,
): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const args: Record<string, unknown> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at <= 0) throw usageError(`arguments are key=value, not "${word}"`);
    const key = word.slice(0, at);
    args[key] = coerce(word.slice(at + 1), properties[key], key);
  }
  return args;
}

/**
 * The value of one argument. Where the schema allows several types, a value that reads as a
 * number, boolean, null or JSON of an allowed type is taken as that; otherwise it stays the
 * string as written (`--args` sends anything exactly).
 */
function coerce(raw: string, property: Schema | undefined, key: string): unknown {
  const types = typesOf(property);
  if (property !== undefined && types.size === 0) return raw;
  const numeric = raw.trim() !== '' && Number.isFinite(Number(raw));
  if ((types.has('integer') || types.has('number')) && numeric) return Number(raw);
  if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (types.has('null') && raw === 'null') return null;
  if (types.has('array') || types.has('object') || property === undefined) {
    try {
      return JSON.parse(raw);
    } catch {
      // Not JSON: a string, if that is allowed.
    }
  }
  if (types.has('string') || property === undefined) return raw;
  const expected = [...types].join(' or ');
  if (types.has('integer') || types.has('number')) {
    throw new CliError(EXIT.dataError, `argument ${key} must be a number, not "${raw}"`);
  }
  if (types.size === 1 && types.has('boolean')) {
    throw new CliError(EXIT.dataError, `argument ${key} must be true or false`);
  }
  throw new CliError(EXIT.dataError, `argument ${key} must be JSON (${expected})`);
}

/** The JSON types a property allows (`type`, a list of types, or those of `anyOf`/`oneOf`). */
function typesOf(property: Schema | undefined): Set<string> {
  const types = new Set<string>();
  if (property === undefined) return types;
  const add = (schema: Schema) => {
    const type = schema.type;
    if (typeof type === 'string') types.add(type);
    else if (Array.isArray(type)) for (const t of type) types.add(String(t));
    if (schema.enum !== undefined && typeof type !== 'string') {
      for (const v of schema.enum as unknown[]) types.add(v === null ? 'null' : typeof v);
    }
  };
  add(property);
  for (const branch of [
    ...((property.anyOf ?? []) as Schema[]),
    ...((property.oneOf ?? []) as Schema[]),
  ])
    add(branch);
  return types;
}

function jsonObject(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(EXIT.dataError, `${where} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(EXIT.dataError, `${where} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}
