import type { Options } from 'tsup';
import { definePackageBuild } from '../../config/tsup.ts';

// The `twofold` executable and the demo server it starts: ESM only (they use import.meta and
// load commands lazily as split chunks), no types, built after the library into the same dist.
const options: Options = {
  ...definePackageBuild({ entries: ['bin', 'demo-server'] }),
  format: ['esm'],
  dts: false,
  clean: false,
  splitting: true,
};
export default options;
