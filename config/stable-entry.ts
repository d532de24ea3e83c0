import { describe, expect, it } from 'vitest';

/**
 * The experimental gate, checked from source: a package's root entry exports exactly
 * `version` (its package.json version) and `experimentalEntry`, and nothing else.
 */
export function describeStableEntry(
  pkg: { name: string; version: string },
  root: Record<string, unknown>,
): void {
  describe(`${pkg.name} root entry`, () => {
    it('exports exactly version and experimentalEntry', () => {
      expect(Object.keys(root).sort()).toEqual(['experimentalEntry', 'version']);
    });
    it('reports the package.json version', () => {
      expect(root.version).toBe(pkg.version);
    });
    it('names the experimental entry', () => {
      expect(root.experimentalEntry).toBe(`${pkg.name}/experimental`);
    });
  });
}
