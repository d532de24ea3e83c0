/**
 * An in-process twofold server on a loopback HTTP endpoint (dual-era), the upstream of the
 * stdio-direction tests: `greet` needs an elicitation, `count` reports progress, `toggle`
 * changes the tool list (`extra` comes and goes), `trace` answers with its trace context.
 */
import { InputRequired, McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { closeAfterTest } from './bridge-env';

export async function httpUpstream(): Promise<URL> {
  const server = new McpServer({ name: 'http-upstream', version: '1.0.0' });
  server.registerTool({
    name: 'greet',
    description: 'Asks for a name, then greets',
    handler: (_args, { inputResponses }) => {
      const answer = inputResponses?.name as { content?: { name?: string } } | undefined;
      if (answer?.content?.name === undefined) {
        return new InputRequired({
          name: {
            method: 'elicitation/create',
            params: {
              message: 'Your name?',
              requestedSchema: {
                type: 'object',
                properties: { name: { type: 'string' } },
                required: ['name'],
              },
            },
          },
        });
      }
      return `Hello, ${answer.content.name}!`;
    },
  });
  server.registerTool({
    name: 'count',
    description: 'Reports progress 1, 2, 3 of 3',
    handler: async (_args, context) => {
      for (const step of [1, 2, 3]) await context.progress(step, 3);
      return 'counted';
    },
  });
  const extra = server.registerTool({ name: 'extra', handler: () => 'extra' });
  server.registerTool({
    name: 'toggle',
    description: 'Removes or restores the extra tool',
    handler: () => {
      if (extra.enabled) extra.disable();
      else extra.enable();
      return 'toggled';
    },
  });
  server.registerTool({
    name: 'trace',
    handler: (_args, context) => JSON.stringify(context.trace ?? null),
  });
  const endpoint = closeAfterTest(await serve(createServerHttpHandler(server)));
  return endpoint.url;
}
