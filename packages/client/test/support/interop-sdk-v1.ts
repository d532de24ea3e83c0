/**
 * The server the SDK 1.32.2 endpoints serve: the same surface as the official 2.4.0 fixture,
 * written the v1 way (elicitation is a server-to-client request, progress a notification
 * related to the call).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A fresh SDK 1.32.2 server instance (one per session). */
export function createSdkV1Server(): McpServer {
  const server = new McpServer(
    { name: 'sdk-v1-interop', version: '1.32.2-fixture' },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  server.registerTool(
    'add',
    { description: 'Adds two integers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool(
    'count',
    { description: 'Counts to three, reporting progress when the request has a token' },
    async (extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= 3; step++) {
        if (progressToken === undefined) continue;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: 3, message: `step ${step}` },
        });
      }
      return { content: [{ type: 'text', text: 'counted to 3' }] };
    },
  );
  server.registerTool(
    'confirm',
    { description: 'Asks the user to confirm an action', inputSchema: { action: z.string() } },
    async ({ action }, extra) => {
      // Related to the call, so Streamable HTTP sends it on the call's own response stream.
      const params = {
        mode: 'form' as const,
        message: `Really ${action}?`,
        requestedSchema: {
          type: 'object' as const,
          properties: { ok: { type: 'boolean' as const } },
          required: ['ok'],
        },
      };
      const answer = await extra.sendRequest(
        { method: 'elicitation/create', params },
        ElicitResultSchema,
      );
      const ok = answer.action === 'accept' ? String(answer.content?.ok) : answer.action;
      return { content: [{ type: 'text', text: `${action}: ok=${ok}` }] };
    },
  );
  server.registerResource(
    'greeting',
    'fixture://greeting',
    { mimeType: 'text/plain', description: 'A fixed greeting' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }] }),
  );
  server.registerPrompt(
    'greet',
    { description: 'Greets someone', argsSchema: { name: z.string() } },
    async ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}` } }],
    }),
  );
  return server;
}
