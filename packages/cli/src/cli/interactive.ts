/**
 * Input requests answered by the person at the terminal: an elicitation form field by field
 * (titles, descriptions, defaults, enums, required fields, types checked), a URL to open, a
 * sampling request answered in the model's place. Prompts go to stderr; stdout stays the
 * command's output.
 */
import { createInterface, type Interface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import type { InputHandlers } from '@twofold/client/experimental';
import type { ElicitRequestParams, ElicitResult } from '@twofold/protocol/experimental';
import type { CliIo } from './io';
import type { Paint } from './output';

type Field = Record<string, unknown>;
type Value = string | number | boolean | string[];

/** Interactive handlers, and `close()` for the prompt they opened. */
export interface Interactive {
  handlers: InputHandlers;
  close(): void;
}

/**
 * Handlers that ask on `io.stdin`/`io.stderr`. `beforePrompt` runs first (a progress bar clears
 * its line). Roots are the working directory.
 */
export function interactiveHandlers(
  io: CliIo,
  paint: Paint,
  beforePrompt: () => void,
): Interactive {
  let prompt: Interface | undefined;
  const ask = async (question: string, signal: AbortSignal): Promise<string> => {
    beforePrompt();
    prompt ??= createInterface({
      input: io.stdin,
      output: io.stderr,
      terminal: io.stdin.isTTY === true,
    });
    return (await prompt.question(question, { signal })).trim();
  };
  const say = (text: string) => io.stderr.write(`${text}\n`);
  return {
    handlers: {
      elicitation: (params, { signal }) => elicit(params, signal, ask, say, paint),
      sampling: async (params, { signal }) => {
        say(paint.bold('The server asks the model:'));
        for (const message of params.messages) say(`  ${message.role}: ${textOf(message.content)}`);
        const reply = await ask('Your reply as the model (empty to decline): ', signal);
        if (reply === '') throw new Error('declined at the terminal');
        return {
          role: 'assistant',
          content: { type: 'text', text: reply },
          model: 'human-at-terminal',
        };
      },
      roots: async () => ({
        roots: [{ uri: pathToFileURL(io.cwd).href, name: 'working directory' }],
      }),
    },
    close: () => prompt?.close(),
  };
}

async function elicit(
  params: ElicitRequestParams,
  signal: AbortSignal,
  ask: (question: string, signal: AbortSignal) => Promise<string>,
  say: (text: string) => void,
  paint: Paint,
): Promise<ElicitResult> {
  say(`${paint.bold('The server asks:')} ${params.message}`);
  if (params.mode === 'url') {
    say(`  open ${paint.cyan(params.url)}`);
    const answer = await ask('Press Enter when done (d: decline, c: cancel): ', signal);
    return { action: decision(answer) ?? 'accept' };
  }
  const go = await ask('Answer it? [Y/d/c] (yes, decline, cancel): ', signal);
  const action = decision(go);
  if (action !== undefined) return { action };
  const content: Record<string, Value> = {};
  const required = new Set(params.requestedSchema.required ?? []);
  for (const [key, field] of Object.entries(params.requestedSchema.properties)) {
    const value = await askField(key, field, required.has(key), signal, ask, say);
    if (value !== undefined) content[key] = value;
  }
  return { action: 'accept', content };
}

/** `d`/`decline` and `c`/`cancel`; anything else goes on. */
function decision(answer: string): 'decline' | 'cancel' | undefined {
  const word = answer.toLowerCase();
  if (word === 'd' || word === 'decline') return 'decline';
  if (word === 'c' || word === 'cancel') return 'cancel';
  return undefined;
}

async function askField(
  key: string,
  field: Field,
  required: boolean,
  signal: AbortSignal,
  ask: (question: string, signal: AbortSignal) => Promise<string>,
  say: (text: string) => void,
): Promise<Value | undefined> {
  const options = choices(field);
  const fallback = field.default as Value | undefined;
  const label = [
    typeof field.title === 'string' ? field.title : key,
    typeof field.description === 'string' ? ` — ${field.description}` : '',
    options
      ? ` (${options.map((o, i) => `${i + 1}=${o.title ? `${o.title} [${o.value}]` : o.value}`).join(', ')})`
      : '',
    fallback !== undefined ? ` [${String(fallback)}]` : '',
    required ? ' *' : '',
  ].join('');
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await ask(`  ${label}: `, signal);
    if (answer === '') {
      if (fallback !== undefined) return fallback;
      if (!required) return undefined;
      say('    required');
      continue;
    }
    const coerced = coerce(answer, field, options);
    if ('value' in coerced) return coerced.value;
    say(`    ${coerced.problem}`);
  }
  throw new Error(`no valid answer for "${key}"`);
}

/** The allowed values of an enum field (single or multi-select), with their titles. */
function choices(field: Field): { value: string; title?: string }[] | undefined {
  const items = field.items as Field | undefined;
  const titled = (field.oneOf ?? field.anyOf ?? items?.oneOf ?? items?.anyOf) as
    | Field[]
    | undefined;
  if (Array.isArray(titled)) {
    return titled.map((option) => ({
      value: String(option.const),
      ...(typeof option.title === 'string' ? { title: option.title } : {}),
    }));
  }
  const list = (field.enum ?? items?.enum) as unknown[] | undefined;
  if (!Array.isArray(list)) return undefined;
  const names = Array.isArray(field.enumNames) ? (field.enumNames as unknown[]) : [];
  return list.map((value, i) => ({
    value: String(value),
    ...(typeof names[i] === 'string' ? { title: names[i] as string } : {}),
  }));
}

/** The typed value of an answer, or what is wrong with it. */
function coerce(
  answer: string,
  field: Field,
  choices: { value: string }[] | undefined,
): { value: Value } | { problem: string } {
  const options = choices?.map((choice) => choice.value);
  const pickOne = (word: string) => {
    const index = Number(word);
    if (options && Number.isInteger(index) && index >= 1 && index <= options.length)
      return options[index - 1] as string;
    return word;
  };
  if (field.type === 'array') {
    const picked = answer
      .split(',')
      .map((w) => pickOne(w.trim()))
      .filter((w) => w !== '');
    const bad = options ? picked.find((w) => !options.includes(w)) : undefined;
    return bad === undefined
      ? { value: picked }
      : { problem: `"${bad}" is not one of ${options?.join(', ')}` };
  }
  if (field.type === 'boolean') {
    if (/^(y|yes|true|1)$/i.test(answer)) return { value: true };
    if (/^(n|no|false|0)$/i.test(answer)) return { value: false };
    return { problem: 'answer yes or no' };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const number = Number(answer);
    if (!Number.isFinite(number)) return { problem: 'a number, please' };
    if (field.type === 'integer' && !Number.isInteger(number))
      return { problem: 'a whole number, please' };
    return { value: number };
  }
  const value = pickOne(answer);
  if (options && !options.includes(value))
    return { problem: `choose one of ${options.join(', ')}` };
  return { value };
}

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) =>
      typeof block === 'object' && block !== null && 'text' in block
        ? String(block.text)
        : JSON.stringify(block),
    )
    .join(' ');
}
