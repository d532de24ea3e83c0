/**
 * The demo server `twofold demo` talks to: a few tools that show what MCP does (a plain call,
 * structured output, progress, a question back to the user, a list change), a resource and a
 * prompt. One `McpServer`, served to both eras.
 */
import { InputRequired, McpServer } from '@twofold/server/experimental';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const TOPICS = ['rain', 'rivers', 'roses', 'snow', 'stars'];

/** Builds the demo server. */
export function createDemoServer(): McpServer {
  const server = new McpServer({
    name: 'twofold-demo',
    version: __TWOFOLD_VERSION__,
    title: 'twofold demo server',
    instructions: 'A demo server: try add, countdown, greet and grow.',
    // Lists may be reused for a minute: the demo shows cache hints at work.
    cache: { ttlMs: 60_000, cacheScope: 'public' },
    // One process for one run, never replicated: a key of its own, chosen on purpose (the
    // server warns about a key left random only by omission).
    requestState: { key: crypto.getRandomValues(new Uint8Array(32)) },
  });
  server.registerTool({
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    outputSchema: object({ sum: { type: 'number' } }, ['sum']),
    annotations: { readOnlyHint: true },
    handler: (args) => {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  });
  server.registerTool({
    name: 'countdown',
    description: 'Counts down from n, reporting progress on the way',
    inputSchema: object({ n: { type: 'integer', minimum: 1, maximum: 10, default: 3 } }),
    handler: async (args, context) => {
      const n = Number(args.n ?? 3);
      for (let left = n; left > 0; left--) {
        await context.progress(n - left + 1, n, `${left}…`);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      return 'lift-off';
    },
  });
  server.registerTool({
    name: 'greet',
    description: 'Asks the user for their name, then greets them',
    inputSchema: object({}),
    handler: (_args, context) => {
      const answer = context.inputResponses?.name as
        | { action?: string; content?: { name?: string } }
        | undefined;
      if (answer === undefined) {
        throw new InputRequired({
          name: {
            method: 'elicitation/create',
            params: {
              message: 'What is your name?',
              requestedSchema: object({ name: { type: 'string', title: 'Name' } }, ['name']),
            },
          },
        });
      }
      return answer.action === 'accept'
        ? `Hello, ${answer.content?.name ?? 'stranger'}!`
        : 'Hello, whoever you are.';
    },
  });
  let grown = 0;
  server.registerTool({
    name: 'grow',
    description: 'Adds a new tool to this server (its clients are told the list changed)',
    inputSchema: object({}),
    handler: () => {
      const name = `sprout_${++grown}`;
      server.registerTool({
        name,
        description: 'A tool grown at run time',
        inputSchema: object({}),
        handler: () => name,
      });
      return `added ${name}`;
    },
  });
  server.registerResource({
    uri: 'demo://readme',
    name: 'readme',
    mimeType: 'text/markdown',
    description: 'What this server is',
    read: (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/markdown',
          text: '# twofold demo\n\nOne server, both eras of MCP.\n',
        },
      ],
    }),
  });
  server.registerResourceTemplate({
    uriTemplate: 'demo://notes/{topic}',
    name: 'note',
    description: 'A note about a topic',
    mimeType: 'text/plain',
    complete: { topic: (value) => TOPICS.filter((topic) => topic.startsWith(value)) },
    read: (uri, { topic }) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `A note on ${topic}.` }],
    }),
  });
  server.registerPrompt({
    name: 'haiku',
    description: 'A haiku about a topic',
    arguments: [{ name: 'topic', required: true }],
    complete: { topic: (value) => TOPICS.filter((topic) => topic.startsWith(value)) },
    get: (args) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Write a haiku about ${args.topic}.` } },
      ],
    }),
  });
  return server;
}
