import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { InputRequired, McpServer } from '@twofold/server/experimental';
import { serveHttp } from '@twofold/server/node';
import { z } from 'zod';

// A server with one tool that asks the user before answering.
const server = new McpServer({ name: 'greeter', version: '1.0.0' });
server.registerTool({
  name: 'greet',
  description: 'Greets the user by the name they give',
  inputSchema: z.object({}),
  handler: (_args, context) => {
    const answer = context.inputResponses?.name as { content?: { name?: string } } | undefined;
    if (!answer) {
      throw new InputRequired({
        name: {
          method: 'elicitation/create',
          params: {
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          },
        },
      });
    }
    return `Hello, ${answer.content?.name ?? 'stranger'}!`;
  },
});
const endpoint = await serveHttp(server, { port: 0 });

// The same client code reaches the server in either era: `auto` detects it (here: modern);
// pinning `legacy` speaks the initialize handshake instead. The handler answers both.
for (const era of ['auto', 'legacy'] as const) {
  const client = await McpClient.connect(httpServer({ url: endpoint.url }), {
    clientInfo: { name: 'readme-client', version: '1.0.0' },
    era,
    handlers: {
      elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
    },
  });
  const { tools } = await client.listTools();
  const result = await client.callTool('greet');
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  console.log(
    `${era}: ${client.verdict.era} ${client.protocolVersion}, tools: ${tools.map((t) => t.name)}, ${text}`,
  );
  await client.close();
}
await endpoint.close();
