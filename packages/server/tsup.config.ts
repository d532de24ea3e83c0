import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: [
    'index',
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
  // A stdio server loads ./experimental and ./node; the HTTP endpoint is ./http's.
  hubs: ['experimental', 'http', 'node'],
});
