/**
 * The servers the server benchmark compares: the same 50 tools (a zod input schema each, a
 * text answer) on a twofold `McpServer` and on the official SDK 2.4.0's `McpServer`, and the
 * one `tools/call` request both are sent, as exact bytes.
 */
import { McpServer as OfficialMcpServer } from '@modelcontextprotocol/server';
import { buildRequestHeaders } from '@twofold/protocol/experimental';
import { McpServer } from '@twofold/server/experimental';
import { z } from 'zod';

export const TOOL_COUNT = 50;
const MODERN = '2026-07-28';

const toolInput = () =>
  z.object({
    query: z.string().describe('What to look for'),
    limit: z.number().int().min(1).max(100).optional(),
  });

const answer = (i: number, query: string) => `tool_${i}: ${query}`;

/** A twofold server with the benchmark's 50 tools; long-lived, as twofold serves it. */
export function createTwofoldServer(): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  for (let i = 0; i < TOOL_COUNT; i++) {
    server.registerTool({
      name: `tool_${i}`,
      description: `Does thing ${i} and returns a short report.`,
      inputSchema: toolInput(),
      handler: ({ query }) => answer(i, query),
    });
  }
  return server;
}

/** An official server with the same tools; the official HTTP entry builds one per request. */
export function createOfficialServer(): OfficialMcpServer {
  const server = new OfficialMcpServer({ name: 'bench', version: '1.0.0' });
  for (let i = 0; i < TOOL_COUNT; i++) {
    server.registerTool(
      `tool_${i}`,
      { description: `Does thing ${i} and returns a short report.`, inputSchema: toolInput() },
      ({ query }) => ({ content: [{ type: 'text', text: answer(i, query) }] }),
    );
  }
  return server;
}

/** The modern `tools/call` of tool 25, as a message with request id `id`. */
export function toolsCallMessage(id: number) {
  return {
    jsonrpc: '2.0' as const,
    id,
    method: 'tools/call',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'bench-client', version: '1.0.0' },
      },
      name: 'tool_25',
      arguments: { query: 'weather in Paris', limit: 3 },
    },
  };
}

/** What a correct answer to {@link toolsCallMessage} contains. */
export const EXPECTED_TEXT = answer(25, 'weather in Paris');

/** The HTTP request both servers get: the same body and headers, byte for byte. */
export const httpRequest = {
  body: JSON.stringify(toolsCallMessage(1)),
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...buildRequestHeaders(toolsCallMessage(1), MODERN),
  },
};
