import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

/** `src/docs/<page>-<part>.ts` is an example of `docs/<page>.md`, and what it should print. */
const EXPECTED: Record<string, RegExp> = {
  'auth-server.ts': /alice via notes-app: notes:read/,
  'auth-client.ts': /reporter with reports:read/,
};

describe('examples of the docs pages', () => {
  const files = readdirSync(join(root, 'src', 'docs')).filter((f) => f.endsWith('.ts'));
  it('every example has an expected output', () => {
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });
  it.each(files)('%s stands in its page verbatim', (file) => {
    const page = readFileSync(join(repo, 'docs', `${file.split('-')[0]}.md`), 'utf8');
    const code = readFileSync(join(root, 'src', 'docs', file), 'utf8').trimEnd();
    expect(page).toContain(`\`\`\`ts\n${code}\n\`\`\``);
  });
  it.each(files)('%s runs and prints what its page says', (file) => {
    const out = execFileSync(tsx, [join('src', 'docs', file)], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out).toMatch(EXPECTED[file] as RegExp);
  });
});
