import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: [
    'index',
    'experimental',
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
  hubs: ['experimental', 'node'],
});
