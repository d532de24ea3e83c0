import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: ['index', 'experimental', 'skills'],
  bundled: ['js-yaml'],
  hubs: ['experimental'],
});
