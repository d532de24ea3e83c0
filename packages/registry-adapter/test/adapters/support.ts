/**
 * Tools for the adapter tests: a real twofold `McpServer` (served over an in-memory pair) whose
 * tools are imported into an `InMemoryToolRegistry` by the real `McpToolProvider`, plus small
 * local host tools.
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import { InputRequired, McpServer, serveTransport } from '@twofold/server/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { McpToolProvider } from '../../src/import/provider';
import { InMemoryToolRegistry } from '../../src/registry/memory';
import type { HostTool, InputResolver, InvokeContext } from '../../src/registry/types';

/** A 1×1 transparent PNG. */
export const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const ADD_INPUT = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

export const ECHO_INPUT = {
  type: 'object',
  properties: { text: { type: 'string', description: 'what to echo' }, times: { type: 'integer' } },
  required: ['times'],
};

/** The server the imported tools come from. */
export function buildCalcServer(): McpServer {
  const server = new McpServer({ name: 'calc', version: '1.0.0' });
  server.registerTool({
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: ADD_INPUT,
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    annotations: { readOnlyHint: true },
    handler: (args: { a: number; b: number }): CallToolResult => ({
      content: [{ type: 'text', text: String(args.a + args.b) }],
      structuredContent: { sum: args.a + args.b },
    }),
  });
  server.registerTool({
    name: 'echo',
    description: 'Echoes its text a number of times',
    inputSchema: ECHO_INPUT,
    handler: (args: { text?: string; times: number }) =>
      Array.from({ length: args.times }, () => args.text ?? '(nothing)').join(' '),
  });
  server.registerTool({
    name: 'fail',
    description: 'Always fails',
    handler: (): CallToolResult => ({
      content: [{ type: 'text', text: 'the disk is full' }],
      isError: true,
    }),
  });
  server.registerTool({
    name: 'picture',
    description: 'Returns a picture',
    handler: (): CallToolResult => ({
      content: [
        { type: 'text', text: 'a pixel' },
        { type: 'image', data: PIXEL, mimeType: 'image/png' },
      ],
    }),
  });
  server.registerTool({
    name: 'confirm',
    description: 'Asks the user to confirm',
    handler: (_args, context) => {
      const answers = context.inputResponses;
      if (answers === undefined) {
        return new InputRequired(
          {
            ok: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'Proceed?',
                requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } },
              },
            },
          },
          { round: 1 },
        );
      }
      return `answered: ${JSON.stringify(answers.ok)}`;
    },
  });
  return server;
}

/** An elicitation answer that accepts with `{ yes: true }`. */
export const ACCEPTING: InputResolver = {
  resolve: async () => ({ action: 'accept', content: { yes: true } }),
};

/** The calc server's tools imported into a registry; `close` ends everything. */
export async function importCalc(options: { resolver?: InputResolver } = {}) {
  const server = buildCalcServer();
  const connections: ReturnType<typeof serveTransport>[] = [];
  const registry = new InMemoryToolRegistry();
  const provider = new McpToolProvider({
    registry,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });
  await provider.connect('calc', {
    kind: 'stream',
    key: 'memory:calc',
    open: () => {
      const [clientEnd, serverEnd] = createInMemoryPair();
      connections.push(serveTransport(server, serverEnd));
      return clientEnd;
    },
  });
  const close = async () => {
    await provider.close();
    for (const served of connections) await (await served).close();
  };
  return { registry, provider, close };
}

/** A local host tool; `seen` records every call's arguments and context. */
export function localTool(
  name: string,
  run: (args: Record<string, unknown>, context: InvokeContext) => ReturnType<HostTool['invoke']>,
  extra: Partial<HostTool> = {},
): HostTool & { seen: { args: Record<string, unknown>; context: InvokeContext }[] } {
  const seen: { args: Record<string, unknown>; context: InvokeContext }[] = [];
  return {
    name,
    description: `local ${name}`,
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    ...extra,
    seen,
    invoke: (args, context) => {
      seen.push({ args, context });
      return run(args, context);
    },
  };
}

/** A local tool that asks for input once, then answers with what it got. */
export function askingTool(): HostTool {
  return localTool('ask', async (_args, context) => {
    if (context.resume) {
      return { content: [{ type: 'text', text: `got ${JSON.stringify(context.resume)}` }] };
    }
    return {
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create', params: { message: 'Name?' } } },
      state: { step: 1 },
    };
  });
}
