import { definePackageBuild } from '../../config/tsup.ts';

export default definePackageBuild({
  entries: ['index', 'shared', 'experimental', 'stdio', 'http', 'http-server', 'node', 'testing'],
  // A stdio program imports ./stdio (or ./node's stdio part) without the HTTP server core.
  // `shared` (not exported) holds what ./http-server and ./node both use.
  hubs: ['experimental', 'shared', 'http-server', 'stdio', 'node'],
});
