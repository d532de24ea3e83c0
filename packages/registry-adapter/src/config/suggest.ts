/**
 * "Did you mean" for misspelt field names and enum values.
 */

/** Fields other MCP clients use, mapped to what twofold calls them. */
const ALIASES: Readonly<Record<string, string>> = {
  disabled: 'use "enabled": false',
  timeout: 'did you mean "connectTimeoutMs"?',
  transport: 'did you mean "type"?',
  transportType: 'did you mean "type"?',
  environment: 'did you mean "env"?',
  servers: 'VS Code\'s name for "mcpServers"; a file has one of them, not both',
  envFile: `twofold does not read env files; list the variables in "env" as ${'$'}{env:NAME} references`,
  dev: "VS Code's development mode (watch and debug) has no twofold equivalent",
};

/** Edit distance (insert, delete, substitute, swap of neighbours), small inputs only. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The closest candidate within a distance that scales with the word's length, if any (for
 * "did you mean").
 *
 * @experimental
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const exact = candidates.find((c) => c.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** A parenthesised hint for an unknown field: a close known name or another client's alias. */
export function fieldHint(field: string, known: readonly string[]): string {
  const alias = Object.hasOwn(ALIASES, field) ? ALIASES[field] : undefined;
  if (alias !== undefined) return ` (${alias})`;
  const near = closest(field, known);
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}
