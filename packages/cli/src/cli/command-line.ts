/**
 * Splitting `--stdio "<command line>"` into a program and its arguments the way a POSIX shell
 * would quote them — but without a shell: nothing is expanded, globbed or substituted, so a
 * server command never runs anything else.
 */
import { usageError } from './exit-codes';

/**
 * Splits a command line on unquoted whitespace. Single quotes keep everything literally;
 * double quotes keep everything but `\"` and `\\`; a backslash outside quotes escapes the next
 * character. Throws a usage error for an unterminated quote or an empty line.
 *
 * @experimental
 */
export function splitCommandLine(line: string): [command: string, ...args: string[]] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined)
    throw usageError(`--stdio: unterminated ${quote} quote in ${JSON.stringify(line)}`);
  if (inWord) words.push(word);
  const [command, ...args] = words;
  if (command === undefined) throw usageError('--stdio: the command line is empty');
  return [command, ...args];
}
