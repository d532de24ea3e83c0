import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: [
    'index',
    'shared',
    'experimental',
    'http',
    'node',
    'stdio',
    'skills',
    'express',
    'fastify',
    'hono',
    'next',
    'opentelemetry',
  ],
  bundled: ['@cfworker/json-schema'],
  // A stdio server loads ./experimental and ./node; the HTTP endpoint is ./http's. `shared`
  // (not exported) holds the core modules both ./experimental and ./http use.
  hubs: ['shared', 'experimental', 'http', 'node'],
});
