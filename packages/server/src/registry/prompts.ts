/**
 * A prompt as the registry keeps it: its wire description (arguments listed once, from a list
 * or from a schema's top-level properties), its argument check and its handler.
 */
import type { Prompt, PromptArgument } from '@twofold/protocol/experimental';
import type { CompletionContext, PromptDefinition } from '../api';
import { compileSchema } from '../schema/compile';
import type { ValidationResult } from '../schema/types';
import { checkCompleters, checkIcons, checkName, checkScopes, checkText } from './checks';
import { pickDefined } from './wire-fields';

/** Completes one argument or template variable. */
export type Completer = (value: string, context: CompletionContext) => string[] | Promise<string[]>;

/** A registered prompt. */
export interface PromptEntry {
  /** The `prompts/list` item (frozen, shared by every list result). */
  readonly prompt: Readonly<Prompt>;
  /** Checks `prompts/get` arguments; the value on success is what `get` receives. */
  readonly validate: (args: Record<string, string>) => ValidationResult | Promise<ValidationResult>;
  readonly get: PromptDefinition<never>['get'];
  readonly complete: Readonly<Record<string, Completer>>;
  /** Scopes an HTTP caller's token needs to get it or complete its arguments. */
  readonly requiredScopes: readonly string[];
}

type ArgumentList = readonly {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}[];

function fromList(list: ArgumentList, label: string) {
  const seen = new Set<string>();
  const declared = list.map((argument): PromptArgument => {
    checkText(`${label}: argument name`, argument.name);
    if (seen.has(argument.name)) {
      throw new TypeError(`${label}: argument "${argument.name}" is declared twice`);
    }
    seen.add(argument.name);
    return { name: argument.name, ...pickDefined(argument, ['title', 'description', 'required']) };
  });
  const required = declared.filter((argument) => argument.required === true);
  const validate = (args: Record<string, string>): ValidationResult => {
    const missing = required.filter((argument) => args[argument.name] === undefined);
    if (missing.length === 0) return { ok: true, value: args };
    return { ok: false, issues: missing.map((argument) => `${argument.name}: required`) };
  };
  return { declared, validate };
}

function fromSchema(schema: unknown, label: string) {
  const compiled = compileSchema(schema, 'input', `${label} arguments`);
  const {
    type,
    properties = {},
    required = [],
  } = compiled.jsonSchema as {
    type?: unknown;
    properties?: Record<string, { title?: unknown; description?: unknown }>;
    required?: string[];
  };
  if (type !== 'object') {
    throw new TypeError(`${label}: an arguments schema must have root "type": "object"`);
  }
  // Arguments arrive as strings: a non-string property needs a coercing schema.
  const declared = Object.entries(properties).map(
    ([name, property]): PromptArgument => ({
      name,
      ...(typeof property.title === 'string' ? { title: property.title } : {}),
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      ...(required.includes(name) ? { required: true } : {}),
    }),
  );
  return { declared, validate: compiled.validate };
}

/** Checks a prompt definition; throws a `TypeError` when unusable. */
export function createPromptEntry(definition: PromptDefinition<never>): PromptEntry {
  checkName('Prompt', definition.name);
  const label = `Prompt "${definition.name}"`;
  if (typeof definition.get !== 'function') throw new TypeError(`${label}: get must be a function`);
  checkIcons(label, definition.icons);
  const complete = checkCompleters(label, definition.complete);
  const requiredScopes = checkScopes(label, definition.requiredScopes);
  const { declared, validate } = Array.isArray(definition.arguments)
    ? fromList(definition.arguments as ArgumentList, label)
    : definition.arguments === undefined
      ? fromList([], label)
      : fromSchema(definition.arguments, label);
  const prompt: Prompt = {
    name: definition.name,
    ...pickDefined(definition, ['title', 'description', 'icons', '_meta']),
    ...(declared.length === 0 ? {} : { arguments: declared }),
  };
  return { prompt: Object.freeze(prompt), validate, get: definition.get, complete, requiredScopes };
}
