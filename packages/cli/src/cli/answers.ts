/**
 * `--answers <file>`: input requests (elicitation, sampling, roots) answered from a JSON file,
 * for scripts and CI. Each kind is one answer (used every time) or a list (used in order, the
 * last one reused).
 *
 * ```json
 * {
 *   "elicitation": [{ "action": "accept", "content": { "name": "Ada" } }, { "action": "decline" }],
 *   "sampling": { "text": "Paris" },
 *   "roots": ["file:///home/ada/project"]
 * }
 * ```
 * An elicitation answer without `action` is accepted content; a sampling answer may be a full
 * `CreateMessageResult` or `{ "text": … }`; roots are URIs or `{ "roots": [...] }`.
 */

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { InputHandlers } from '@twofold/client/experimental';
import type {
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
} from '@twofold/protocol/experimental';
import { isRecord } from '@twofold/protocol/experimental';
import { CliError, EXIT } from './exit-codes';

type Answers = Partial<Record<'elicitation' | 'sampling' | 'roots', unknown>>;

/** Input handlers answering from the file at `path` (relative to `cwd`). */
export async function answersFromFile(path: string, cwd: string): Promise<InputHandlers> {
  const file = resolve(cwd, path);
  let answers: Answers;
  try {
    answers = JSON.parse(await readFile(file, 'utf8')) as Answers;
  } catch (error) {
    const reason =
      error instanceof SyntaxError ? `not JSON: ${error.message}` : (error as Error).message;
    throw new CliError(EXIT.dataError, `--answers ${path}: ${reason}`);
  }
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
    throw new CliError(EXIT.dataError, `--answers ${path}: must be a JSON object`);
  }
  const handlers: InputHandlers = {};
  if (answers.elicitation !== undefined) {
    const next = sequence(answers.elicitation);
    handlers.elicitation = async () => elicitResult(next());
  }
  if (answers.sampling !== undefined) {
    const next = sequence(answers.sampling);
    handlers.sampling = async () => samplingResult(next());
  }
  if (answers.roots !== undefined) {
    const next = sequence(answers.roots);
    handlers.roots = async () => rootsResult(next());
  }
  return handlers;
}

/** Hands out a list's items in order, then its last one again; a single value every time. */
function sequence(value: unknown): () => unknown {
  if (!Array.isArray(value) || value.length === 0) return () => value;
  let index = 0;
  return () => value[Math.min(index++, value.length - 1)];
}

function elicitResult(answer: unknown): ElicitResult {
  if (isRecord(answer) && typeof answer.action === 'string')
    return answer as unknown as ElicitResult;
  return {
    action: 'accept',
    content: (isRecord(answer) ? answer : {}) as ElicitResult['content'] & object,
  };
}

function samplingResult(answer: unknown): CreateMessageResult {
  if (isRecord(answer) && 'content' in answer) {
    return { role: 'assistant', model: 'twofold-answers', ...answer } as CreateMessageResult;
  }
  const text = isRecord(answer) && typeof answer.text === 'string' ? answer.text : String(answer);
  return { role: 'assistant', content: { type: 'text', text }, model: 'twofold-answers' };
}

function rootsResult(answer: unknown): ListRootsResult {
  if (isRecord(answer) && Array.isArray(answer.roots)) return answer as unknown as ListRootsResult;
  const list = Array.isArray(answer) ? answer : [answer];
  return {
    roots: list.map((root) => (typeof root === 'string' ? { uri: root } : root)),
  } as ListRootsResult;
}
