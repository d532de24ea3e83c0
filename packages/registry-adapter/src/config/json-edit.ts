/**
 * Writing an edited `mcp.json` back without losing what its author wrote: the old and the new
 * document are compared, and only what changed is edited in the text (`jsonc-parser`'s `modify`),
 * so comments, formatting and key order survive. An unchanged document gives back the same text.
 */

import { isRecord } from '@twofold/protocol/experimental';
import { applyEdits, type FormattingOptions, type JSONPath, modify } from 'jsonc-parser';
import { parseJsonc } from './json-text';

/**
 * The text of `after`, made by editing `text` (whose value is `before`) where the two differ.
 * Without a previous text, 2-space JSON with a trailing newline.
 */
export function editJsonText(
  text: string | undefined,
  before: unknown,
  after: Record<string, unknown>,
): string {
  if (text === undefined || text.trim() === '') return `${JSON.stringify(after, null, 2)}\n`;
  // The byte-order mark is kept, but out of the parser's way.
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const formattingOptions = detectFormatting(text);
  let out = text.slice(bom.length);
  for (const [path, value] of changes(before, after, [])) {
    out = applyEdits(out, modify(out, path, value, { formattingOptions }));
  }
  // `modify` can leave a stray comma (removing an object's only member before a trailing comma):
  // a text that does not read back as `after` is rewritten whole rather than written wrong.
  const check = parseJsonc(out);
  if (check.error !== undefined || !sameJson(check.value, after))
    return editJsonText(undefined, before, after);
  return bom + out;
}

/** Each place where `after` differs from `before`, outermost first; `undefined` deletes. */
function changes(before: unknown, after: unknown, path: JSONPath): Array<[JSONPath, unknown]> {
  if (!isRecord(before) || !isRecord(after)) {
    return sameJson(before, after) ? [] : [[path, after]];
  }
  const found: Array<[JSONPath, unknown]> = [];
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) found.push([[...path, key], undefined]);
  }
  for (const [key, value] of Object.entries(after)) {
    if (!Object.hasOwn(before, key)) found.push([[...path, key], value]);
    else found.push(...changes(before[key], value, [...path, key]));
  }
  return found;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The file's own indentation (tabs or N spaces) and line ending, for inserted text. */
function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent === undefined ? 2 : indent.length, eol };
}
