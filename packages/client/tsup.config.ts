import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: ['index', 'experimental', 'node', 'opentelemetry'],
  bundled: ['@cfworker/json-schema'],
});
