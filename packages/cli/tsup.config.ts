import type { Options } from 'tsup';
import { definePackageBuild } from '../../config/tsup.ts';

// Shims give the CJS build an import.meta.url: `demo` finds its server beside its own chunk.
const options: Options = {
  ...definePackageBuild({ entries: ['index', 'experimental'] }),
  shims: true,
};
export default options;
