import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: ['index', 'experimental', 'stdio', 'http', 'node', 'testing'],
  hubs: ['experimental', 'node'],
});
