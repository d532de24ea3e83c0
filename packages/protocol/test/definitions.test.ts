import { describe, expect, it } from 'vitest';
import { getWire } from '../src/registry';
import { SUPPORTED_VERSIONS } from '../src/versions';
import { readSchema, specAvailable } from './spec-files';

// "Every request, result, notification, content block, capability object and error" of a
// revision: twofold has a schema for each definition its schema.json names.
describe.skipIf(!specAvailable)('every schema.json definition has a twofold schema', () => {
  it.each(SUPPORTED_VERSIONS)('%s', (version) => {
    const schema = readSchema(version) as { $defs?: object; definitions?: object };
    const names = Object.keys(schema.$defs ?? schema.definitions ?? {});
    expect(names.length).toBeGreaterThan(70);
    const defined = getWire(version).definitions;
    expect(names.filter((name) => !(name in defined))).toEqual([]);
  });
});
