// Every changeset must parse as changesets reads it (front matter naming real packages), so a
// formatter or a typo cannot silently drop a release note.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import parseChangeset from '@changesets/parse';
import { describe, expect, it } from 'vitest';
import { publishedPackages, repoRoot } from '../src/workspace.ts';

const dir = join(repoRoot, '.changeset');
const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');
const names = new Set(publishedPackages().map(({ json }) => json.name));

describe('changesets', () => {
  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  it.each(files)('%s names published packages and has a summary', (file) => {
    const { releases, summary } = parseChangeset(readFileSync(join(dir, file), 'utf8'));
    expect(releases.length).toBeGreaterThan(0);
    for (const release of releases) {
      expect(names.has(release.name), release.name).toBe(true);
      expect(['major', 'minor', 'patch']).toContain(release.type);
    }
    expect(summary.trim()).not.toBe('');
  });
});
