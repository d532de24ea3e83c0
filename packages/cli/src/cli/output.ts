/**
 * Human and machine output: aligned tables, colour only on a terminal (and never with
 * `NO_COLOR`), stable JSON, and one-line messages on stderr.
 */
import type { CliIo, OutputStream } from './io';

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, blue: 34, cyan: 36 } as const;

/** Text styles; each is the identity when colour is off. */
export type Paint = Record<keyof typeof CODES, (text: string) => string>;

/**
 * Whether to colour `stream`: `NO_COLOR` (any value) turns it off, `FORCE_COLOR` on; otherwise a
 * terminal that is not `dumb`.
 */
export function colorFor(stream: OutputStream, env: CliIo['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The styles for `enabled`. */
export function paint(enabled: boolean): Paint {
  const style = (code: number) => (text: string) =>
    enabled ? `\u001b[${code}m${text}\u001b[0m` : text;
  return Object.fromEntries(
    Object.entries(CODES).map(([name, code]) => [name, style(code)]),
  ) as Paint;
}

/** Colour codes, which take no width. */
const ANSI_STYLE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Visible width. */
function width(text: string): number {
  return [...text.replace(ANSI_STYLE, '')].length;
}

/** Cuts `text` to `max` visible characters, marking the cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * An aligned table: a header row, then one row per item. On a terminal the last column is cut
 * to the terminal width; elsewhere nothing is cut.
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: { paint: Paint; columns?: number | undefined },
): string {
  const cells = rows.map((row) => row.map((cell) => cell.replace(/\s+/g, ' ').trim()));
  const widths = header.map((h, i) => Math.max(width(h), ...cells.map((r) => width(r[i] ?? ''))));
  const pad = (text: string, i: number) =>
    i === header.length - 1 ? text : text + ' '.repeat((widths[i] ?? 0) - width(text));
  const fitted = (row: readonly string[]) => {
    const line = row.map(pad).join('  ');
    const limit = options.columns;
    return limit === undefined || width(line) <= limit ? line : truncate(line, limit);
  };
  const lines = [options.paint.bold(fitted(header)), ...cells.map(fitted)];
  return `${lines.join('\n')}\n`;
}

/**
 * JSON for `--json`: two-space indented, one trailing newline.
 */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
