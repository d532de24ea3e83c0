/**
 * A twofold server whose tools need input (2026-07-28 `input_required` rounds on modern
 * requests, real server-to-client requests on legacy sessions), and a resolver that answers
 * them while recording what it was asked.
 */
import type { InputRequest } from '@twofold/protocol/experimental';
import { InputRequired, McpServer } from '@twofold/server/experimental';
import type { InputResolver } from '../../../src/registry/types';

/** An elicitation form asking for one string field. */
function askFor(message: string, field: string): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      message,
      requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } } },
    },
  };
}

/** The `field` of an accepted elicitation answered under `key`. */
function answered(answers: unknown, key: string, field: string): string | undefined {
  const answer = (answers as Record<string, { action?: string; content?: object }> | undefined)?.[
    key
  ];
  if (answer?.action !== 'accept') return undefined;
  const value = (answer.content as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * `greet` asks one name; `two_step` asks a name, then (carrying it in its state) a colour;
 * `survey` asks a name and the client's roots in one round; `forever` asks on every attempt.
 */
export function askingServer(): McpServer {
  const server = new McpServer({ name: 'asking', version: '1.0.0' });
  server.registerTool({
    name: 'greet',
    handler: (_args, { inputResponses }) => {
      const name = answered(inputResponses, 'user', 'name');
      return name ? `Hello, ${name}!` : new InputRequired({ user: askFor('Name?', 'name') });
    },
  });
  server.registerTool({
    name: 'two_step',
    handler: (_args, { inputResponses, state }) => {
      const known = (state as { name?: string } | undefined)?.name;
      if (known !== undefined) {
        const color = answered(inputResponses, 'color', 'color');
        if (color) return `${known} likes ${color}`;
      }
      const name = known ?? answered(inputResponses, 'name', 'name');
      if (name === undefined) return new InputRequired({ name: askFor('Name?', 'name') });
      return new InputRequired({ color: askFor(`Colour, ${name}?`, 'color') }, { name });
    },
  });
  server.registerTool({
    name: 'survey',
    handler: (_args, { inputResponses }) => {
      const name = answered(inputResponses, 'user', 'name');
      const roots = (inputResponses?.roots as { roots?: { uri: string }[] } | undefined)?.roots;
      if (name && roots) return `${name} works in ${roots.map((root) => root.uri).join(' ')}`;
      return new InputRequired({
        user: askFor('Name?', 'name'),
        roots: { method: 'roots/list', params: {} },
      });
    },
  });
  server.registerTool({
    name: 'forever',
    handler: () => new InputRequired({ again: askFor('Once more?', 'name') }),
  });
  return server;
}

/** What a `RecordingResolver` was asked: `method tool`. */
export interface RecordingResolver extends InputResolver {
  readonly asked: string[];
}

/**
 * Answers every elicitation with `name: Ada`, `color: teal`, and roots with one root. With
 * `holdUntil`, answers nothing until that many requests have arrived (so they surely overlap).
 */
export function recordingResolver(holdUntil = 0): RecordingResolver {
  const asked: string[] = [];
  let release!: () => void;
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    asked,
    resolve: async (request, { tool }) => {
      asked.push(`${request.method} ${tool}`);
      if (asked.length >= holdUntil) release();
      await all;
      if (request.method === 'roots/list') return { roots: [{ uri: 'file:///projects/demo' }] };
      if (request.method === 'elicitation/create') {
        return { action: 'accept', content: { name: 'Ada', color: 'teal' } };
      }
      return {
        role: 'assistant',
        model: 'test',
        content: { type: 'text', text: 'sampled' },
      };
    },
  };
}

/** The elicitation answer the host gives when resuming by hand. */
export const ACCEPT_GRACE = { action: 'accept', content: { name: 'Grace', color: 'red' } };
