import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: ['index', 'experimental', 'stdio', 'http', 'http-server', 'node', 'testing'],
  // A stdio program imports ./stdio (or ./node's stdio part) without the HTTP server core.
  hubs: ['experimental', 'http-server', 'stdio', 'node'],
});
