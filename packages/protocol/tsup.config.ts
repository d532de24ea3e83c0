import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({ entries: ['index', 'experimental'], bundled: ['js-yaml'] });
