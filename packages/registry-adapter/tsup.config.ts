import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: ['index', 'shared', 'experimental', 'node', 'ai-sdk', 'openai', 'langchain'],
  // ./node takes the registry, the provider and the errors from ./experimental; the framework
  // entries load optional peers, so they are never hubs, and take their one shared class from
  // `shared` (not exported).
  hubs: ['shared', 'experimental', 'node'],
});
