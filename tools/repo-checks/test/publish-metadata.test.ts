// What the registry shows and what npm provenance needs: every published package ships the
// root LICENSE and points at its own directory of the repository.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, repoRoot } from '../src/workspace.ts';

const license = readFileSync(join(repoRoot, 'LICENSE'), 'utf8');
const repository = 'git+https://github.com/twofold-mcp/twofold.git';

describe('publish metadata', () => {
  it('the root LICENSE is MIT for the twofold authors', () => {
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the twofold authors\n/);
  });

  for (const { dir, path, json } of publishedPackages()) {
    it(`${json.name} ships a copy of the root LICENSE`, () => {
      expect(readFileSync(join(path, 'LICENSE'), 'utf8')).toBe(license);
      expect(json.license).toBe('MIT');
      expect(json.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'LICENSE']));
    });

    it(`${json.name} names its repository directory, homepage, bugs and keywords`, () => {
      expect(json.repository).toEqual({
        type: 'git',
        url: repository,
        directory: `packages/${dir}`,
      });
      expect(json.homepage).toMatch(/^https:\/\/github\.com\/twofold-mcp\/twofold\//);
      expect(json.bugs).toEqual({ url: 'https://github.com/twofold-mcp/twofold/issues' });
      expect(json.keywords).toEqual(expect.arrayContaining(['mcp', 'model-context-protocol']));
      expect(json.publishConfig).toEqual({ access: 'public', provenance: true });
    });

    it(`${json.name} maps every subpath for node10 type resolution`, () => {
      const subpaths = Object.keys(json.exports ?? {})
        .filter((key) => key !== '.' && key !== './package.json')
        .map((key) => key.slice(2));
      const expected = Object.fromEntries(subpaths.map((s) => [s, [`./dist/${s}.d.ts`]]));
      expect(json.typesVersions).toEqual({ '*': expected });
    });
  }
});
