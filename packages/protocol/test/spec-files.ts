/**
 * Access to the official schemas and examples in `../shared/spec` (beside the repository).
 * They are never copied into the repository; where they are absent, tests that need them skip
 * with a visible message.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SPEC_DIR = process.env.TWOFOLD_SPEC_DIR ?? join(repoRoot, '..', 'shared', 'spec');
export const specAvailable = existsSync(join(SPEC_DIR, '2026-07-28', 'schema.json'));

if (!specAvailable) {
  console.warn(
    `[spec] ${SPEC_DIR} not found: tests against the official schemas and examples are SKIPPED`,
  );
}

export function readSchema(revision: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SPEC_DIR, revision, 'schema.json'), 'utf8')) as Record<
    string,
    unknown
  >;
}

export interface ExampleFile {
  type: string;
  name: string;
  value: unknown;
}

/** Every example of a revision, as `{ type, name, value }` (type = the definition name). */
export function readExamples(revision: string): ExampleFile[] {
  const root = join(SPEC_DIR, revision, 'examples');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((type) =>
    readdirSync(join(root, type))
      .filter((name) => name.endsWith('.json'))
      .map((name) => ({
        type,
        name,
        value: JSON.parse(readFileSync(join(root, type, name), 'utf8')) as unknown,
      })),
  );
}
