/**
 * The real twofold server the McpClient API tests talk to: a few tools, resources, a template
 * and prompts (enough for several pages at a small `pageSize`), plus tools that need input.
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import { InputRequired, McpServer, type McpServerOptions } from '@twofold/server/experimental';

export const TOOL_NAMES = ['add', 'echo', 'shout', 'whisper'];
export const RESOURCE_URIS = ['test://one', 'test://three', 'test://two'];
export const PROMPT_NAMES = ['farewell', 'greet', 'summary'];

/** Builds the API server; `options` override the server options. */
export function buildApiServer(options: Partial<McpServerOptions> = {}): McpServer {
  const server = new McpServer({
    name: 'api-server',
    version: '2.0.0',
    instructions: 'test instructions',
    ...options,
  });
  server.registerTool({
    name: 'echo',
    description: 'Echoes its text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: (args: { text?: string }) => `echo: ${args.text ?? ''}`,
  });
  server.registerTool({
    name: 'shout',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: (args: { text?: string }) => (args.text ?? '').toUpperCase(),
  });
  server.registerTool({
    name: 'whisper',
    handler: () => 'psst',
  });
  server.registerTool({
    name: 'add',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    outputSchema: {
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    },
    handler: (args: { a: number; b: number }): CallToolResult => ({
      content: [{ type: 'text', text: String(args.a + args.b) }],
      structuredContent: { sum: args.a + args.b },
    }),
  });
  for (const uri of RESOURCE_URIS) {
    server.registerResource({
      uri,
      name: uri.slice('test://'.length),
      mimeType: 'text/plain',
      read: (url) => ({ contents: [{ uri: url.href, text: `content of ${url.href}` }] }),
    });
  }
  server.registerResourceTemplate({
    uriTemplate: 'test://items/{id}',
    name: 'item',
    complete: { id: (value) => ['apple', 'apricot', 'banana'].filter((v) => v.startsWith(value)) },
    read: (url, variables) => ({ contents: [{ uri: url.href, text: `item ${variables.id}` }] }),
  });
  server.registerResourceTemplate({
    uriTemplate: 'test://users/{name}',
    name: 'user',
    read: (url, variables) => ({ contents: [{ uri: url.href, text: `user ${variables.name}` }] }),
  });
  server.registerResourceTemplate({
    uriTemplate: 'test://zones/{zone}',
    name: 'zone',
    read: (url) => ({ contents: [{ uri: url.href, text: 'zone' }] }),
  });
  for (const name of PROMPT_NAMES) {
    server.registerPrompt({
      name,
      arguments: [{ name: 'who', required: false }],
      complete: { who: (value) => ['alice', 'albert', 'bob'].filter((v) => v.startsWith(value)) },
      get: (args) => ({
        messages: [
          { role: 'user', content: { type: 'text', text: `${name} ${args.who ?? 'nobody'}` } },
        ],
      }),
    });
  }
  return server;
}

/** Input requests the input tools ask for. */
export const FORM_REQUEST = {
  method: 'elicitation/create',
  params: {
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
} as const;
export const URL_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'url',
    message: 'Sign in',
    url: 'https://example.com/sign-in',
    elicitationId: 'sign-in-1',
  },
} as const;
export const SAMPLING_REQUEST = {
  method: 'sampling/createMessage',
  params: {
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
    maxTokens: 20,
  },
} as const;
export const ROOTS_REQUEST = { method: 'roots/list' } as const;

/** Adds tools that ask for input: one per kind, and one that asks for all four at once. */
export function addInputTools(server: McpServer): void {
  const asks = {
    ask_form: { form: FORM_REQUEST },
    ask_url: { link: URL_REQUEST },
    ask_sampling: { sample: SAMPLING_REQUEST },
    ask_roots: { roots: ROOTS_REQUEST },
    ask_all: {
      form: FORM_REQUEST,
      link: URL_REQUEST,
      sample: SAMPLING_REQUEST,
      roots: ROOTS_REQUEST,
    },
  } as const;
  for (const [name, requests] of Object.entries(asks)) {
    server.registerTool({
      name,
      handler: (_args, context) => {
        const answers = context.inputResponses;
        if (answers === undefined) return new InputRequired(requests, { round: 1 });
        return {
          content: [{ type: 'text', text: JSON.stringify(answers) }],
          structuredContent: { answers, state: context.state ?? null, era: context.era },
        };
      },
    });
  }
}
