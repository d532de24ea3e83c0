import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const run = (file: string) =>
  execFileSync(tsx, [file], { cwd: root, encoding: 'utf8', timeout: 60_000 });

describe('the wire tour (one modern request checked by the server, step by step)', () => {
  it('runs every step and says so', () => {
    const out = run('src/wire-tour.ts');
    expect(out).toContain('"version":"2026-07-28"');
    expect(out).toContain('"code":-32022');
    expect(out).toContain('negotiated version: 2025-11-25');
    expect(out).toContain('"header":"Mcp-Name"');
    expect(out).toMatch(/Done: every message above/);
  });
});

describe('README examples', () => {
  const files = readdirSync(join(root, 'src', 'readme')).filter((f) => f.endsWith('.ts'));
  it.each(files)('%s is the example of its package README, verbatim', (file) => {
    const readme = readFileSync(
      join(repo, 'packages', file.replace(/\.ts$/, ''), 'README.md'),
      'utf8',
    );
    const code = readFileSync(join(root, 'src', 'readme', file), 'utf8').trimEnd();
    expect(readme).toContain(`\`\`\`ts\n${code}\n\`\`\``);
  });
  it.each(files)('%s runs', (file) => {
    expect(run(join('src', 'readme', file))).not.toBe('');
  });
});
