/**
 * The everything server: one `McpServer` with every tool, resource and prompt the MCP
 * conformance suite expects, plus the plain demo tools `echo` and `add`.
 */
import { McpServer, type McpServerOptions } from '@twofold/server/experimental';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { registerSkills } from './skills';
import { registerClientRequestTools } from './tools/client-requests';
import { registerContentTools } from './tools/content';
import { registerDemoTools } from './tools/demo';
import { registerDiagnosticTools } from './tools/diagnostics';
import { registerHeaderParamTool } from './tools/header-param';
import { registerInputRequiredTools } from './tools/input-required';
import { registerJsonSchemaTool } from './tools/json-schema';
import { registerNotificationTools } from './tools/notifications';
import { registerSsePollingTool } from './tools/sse-polling';
import { registerTaskTools } from './tools/tasks';

/** `shared`: the request-state key and the stores replicas share (see ./shared-state). */
export function createEverythingServer(
  shared: Pick<McpServerOptions, 'requestState' | 'listen' | 'tasks'> = {},
): McpServer {
  const server = new McpServer({
    ...shared,
    name: 'twofold-everything-server',
    version: '0.0.0',
    title: 'twofold everything server',
    instructions: 'Test fixtures for the MCP conformance suite, plus echo and add.',
    // Lists and discovery change only when a test hook runs: let clients keep them a minute.
    cache: { ttlMs: 60_000, cacheScope: 'public' },
  });
  registerContentTools(server);
  registerNotificationTools(server);
  registerSsePollingTool(server);
  registerClientRequestTools(server);
  registerInputRequiredTools(server);
  registerDiagnosticTools(server);
  registerJsonSchemaTool(server);
  registerHeaderParamTool(server);
  registerTaskTools(server);
  registerDemoTools(server);
  registerResources(server);
  registerPrompts(server);
  registerSkills(server);
  return server;
}
