import { describe, expect, it } from 'vitest';
import pkg from '../package.json';
import * as root from '../src/index';

// The experimental gate: the root entry exports only what is stable.
describe('@twofold/server root entry', () => {
  it('exports exactly version and experimentalEntry', () => {
    expect(Object.keys(root).sort()).toEqual(['experimentalEntry', 'version']);
  });

  it('reports the package.json version', () => {
    expect(root.version).toBe(pkg.version);
  });

  it('names the experimental entry', () => {
    expect(root.experimentalEntry).toBe('@twofold/server/experimental');
  });
});
