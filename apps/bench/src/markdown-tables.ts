/**
 * Pads every Markdown table of a document the way the repository's formatter (Biome) does:
 * each column as wide as its widest cell in display width (East Asian wide characters count
 * two), right-aligned columns padded on the left. A written report then passes `biome check`.
 */

/** Display width of `text`: wide (CJK, fullwidth, emoji) code points count two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    const wide =
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x1f300 && c <= 0x1faff);
    width += wide ? 2 : 1;
  }
  return width;
}

/** A table cell's text: no raw pipe (escaped) and no line break. */
export function cellText(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');
}

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

function formatTable(lines: readonly string[]): string[] {
  const rows = lines.map(splitRow);
  const aligns = (rows[1] ?? []).map((cell) => (cell.endsWith(':') ? 'right' : 'left'));
  const columns = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(3, ...rows.filter((_, r) => r !== 1).map((row) => displayWidth(row[i] ?? ''))),
  );
  return rows.map((row, r) => {
    const cells = widths.map((width, i) => {
      const right = aligns[i] === 'right';
      if (r === 1) return right ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width);
      const cell = row[i] ?? '';
      const pad = ' '.repeat(width - displayWidth(cell));
      return right ? pad + cell : cell + pad;
    });
    return `| ${cells.join(' | ')} |`;
  });
}

/** The document with every table (a run of lines starting with `|`) padded. */
export function formatTables(markdown: string): string {
  const out: string[] = [];
  let table: string[] = [];
  const flush = () => {
    if (table.length >= 2) out.push(...formatTable(table));
    else out.push(...table);
    table = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) table.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join('\n');
}
