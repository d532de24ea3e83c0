/**
 * Modern multi-round-trip requests with the real `McpServer`: `input_required` results with a
 * sealed `requestState`, retries that give the handler its state and the answers, and every way
 * a state can be refused.
 */
import {
  createRequest,
  type InputRequest,
  type JsonRpcResponse,
  type RequestId,
} from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { InputRequired, type RequestContext } from '../src/api';
import { handleModernRequest } from '../src/modern/dispatch';
import { MAX_INPUT_ROUNDS } from '../src/mrtr/rounds';
import { McpServer } from '../src/server';
import { modernParams } from './support/peer';
import { errorOf, resultOf } from './support/responses';
import { schemaErrors, specAvailable } from './support/spec-schema';

const ALL_INPUT = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
const confirm: InputRequest = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Book it?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  },
};

function createServer(clock = { now: 1_000_000 }, key = 'test-key') {
  const server = new McpServer({
    name: 'mrtr',
    version: '1.0.0',
    cache: { ttlMs: 60_000, cacheScope: 'public' },
    requestState: { key, ttlMs: 10_000, now: () => clock.now },
  });
  server.registerTool({
    name: 'book',
    inputSchema: { type: 'object', properties: { seats: { type: 'number' } } },
    handler: (args: { seats?: number }, context) => {
      const answer = context.inputResponses?.confirm as { content?: { ok?: boolean } } | undefined;
      if (answer === undefined) return new InputRequired({ confirm }, { seats: args.seats });
      return `booked ${JSON.stringify(context.state)} ok=${answer.content?.ok}`;
    },
  });
  server.registerTool({
    name: 'other',
    inputSchema: { type: 'object', properties: { seats: { type: 'number' } } },
    handler: () => 'other',
  });
  // Asks for as many steps as it is told to, counting them in its state.
  server.registerTool({
    name: 'steps',
    inputSchema: { type: 'object', properties: { count: { type: 'number' } } },
    handler: (args: { count: number }, context) => {
      const done = (context.state as number | undefined) ?? 0;
      if (done < args.count) throw new InputRequired({ [`step${done}`]: confirm }, done + 1);
      return `done after ${done}`;
    },
  });
  server.registerTool({
    name: 'open_link',
    handler: (_args, context) =>
      context.inputResponses?.link
        ? 'opened'
        : new InputRequired({
            link: {
              method: 'elicitation/create',
              params: { mode: 'url', message: 'Sign in', url: 'https://example.com/x' },
            },
          }),
  });
  server.registerPrompt({
    name: 'workspace',
    get: (_args, context) => {
      const roots = context.inputResponses?.roots as { roots: { uri: string }[] } | undefined;
      if (roots === undefined) throw new InputRequired({ roots: { method: 'roots/list' } });
      return {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `roots: ${roots.roots.map((r) => r.uri)}` },
          },
        ],
      };
    },
  });
  server.registerResource({
    uri: 'test://summary',
    name: 'summary',
    read: (uri, context) => {
      const summary = context.inputResponses?.summary as { content: { text: string } } | undefined;
      if (summary === undefined) {
        return new InputRequired(
          {
            summary: {
              method: 'sampling/createMessage',
              params: {
                messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
                maxTokens: 50,
              },
            },
          },
          'sampling',
        );
      }
      return { contents: [{ uri: uri.href, text: `${context.state}: ${summary.content.text}` }] };
    },
  });
  return server;
}

let nextId = 1;
async function call(
  server: McpServer,
  method: string,
  extra: Record<string, unknown>,
  capabilities: Record<string, unknown> = ALL_INPUT,
  id: RequestId = nextId++,
): Promise<JsonRpcResponse> {
  return handleModernRequest(
    server,
    createRequest(id, method, modernParams(extra, {}, capabilities)),
    {
      signal: new AbortController().signal,
      notify: async () => undefined,
    },
  );
}
/** The first round of `book`: its `input_required` result. */
async function firstRound(server: McpServer, args: Record<string, unknown> = { seats: 2 }) {
  return resultOf(await call(server, 'tools/call', { name: 'book', arguments: args }));
}
const accepted = { confirm: { action: 'accept', content: { ok: true } } };

describe('modern multi-round-trip requests', () => {
  it('asks for an elicitation, then finishes with the state and the answers', async () => {
    const server = createServer();
    const first = await firstRound(server);
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm } });
    expect(typeof first.requestState).toBe('string');
    expect(first._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': server.serverInfo });
    expect(first).not.toHaveProperty('ttlMs');
    expect(first).not.toHaveProperty('cacheScope');
    const retry = {
      name: 'book',
      arguments: { seats: 2 },
      inputResponses: accepted,
      requestState: first.requestState,
    };
    expect(resultOf(await call(server, 'tools/call', retry))).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'booked {"seats":2} ok=true' }],
    });
  });

  it.skipIf(!specAvailable)(
    'sends input_required results the 2026-07-28 schema accepts',
    async () => {
      const server = createServer();
      expect(schemaErrors('2026-07-28', 'InputRequiredResult', await firstRound(server))).toEqual(
        [],
      );
      const prompt = resultOf(await call(server, 'prompts/get', { name: 'workspace' }));
      expect(schemaErrors('2026-07-28', 'InputRequiredResult', prompt)).toEqual([]);
    },
  );

  it('serves a prompt and a resource read that ask for input (thrown or returned)', async () => {
    const server = createServer();
    const prompt = resultOf(await call(server, 'prompts/get', { name: 'workspace' }));
    expect(prompt).toMatchObject({
      resultType: 'input_required',
      inputRequests: { roots: { method: 'roots/list' } },
    });
    const promptRetry = {
      name: 'workspace',
      inputResponses: { roots: { roots: [{ uri: 'file:///src' }] } },
      requestState: prompt.requestState,
    };
    expect(resultOf(await call(server, 'prompts/get', promptRetry))).toMatchObject({
      resultType: 'complete',
      messages: [{ content: { text: 'roots: file:///src' } }],
    });

    const read = resultOf(await call(server, 'resources/read', { uri: 'test://summary' }));
    expect(read).toMatchObject({ resultType: 'input_required' });
    expect(read).not.toHaveProperty('ttlMs');
    const readRetry = {
      uri: 'test://summary',
      inputResponses: {
        summary: { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'm' },
      },
      requestState: read.requestState,
    };
    expect(resultOf(await call(server, 'resources/read', readRetry))).toMatchObject({
      resultType: 'complete',
      contents: [{ uri: 'test://summary', text: 'sampling: short' }],
      ttlMs: 60_000,
    });
  });

  it('carries evolving state over several rounds, each with a new requestState', async () => {
    const server = createServer();
    let params: Record<string, unknown> = { name: 'steps', arguments: { count: 3 } };
    const states = new Set<unknown>();
    for (let round = 0; round < 3; round++) {
      const result = resultOf(await call(server, 'tools/call', params));
      expect(result.inputRequests).toHaveProperty(`step${round}`);
      states.add(result.requestState);
      params = {
        ...params,
        inputResponses: { [`step${round}`]: { action: 'accept' } },
        requestState: result.requestState,
      };
    }
    expect(states.size).toBe(3);
    expect(resultOf(await call(server, 'tools/call', params))).toMatchObject({
      content: [{ text: 'done after 3' }],
    });
  });

  it(`fails with -32603 when a handler asks more than ${MAX_INPUT_ROUNDS} times`, async () => {
    const server = createServer();
    let params: Record<string, unknown> = { name: 'steps', arguments: { count: 100 } };
    for (let round = 1; round <= MAX_INPUT_ROUNDS; round++) {
      const result = resultOf(await call(server, 'tools/call', params));
      expect(result.resultType).toBe('input_required');
      params = { ...params, inputResponses: {}, requestState: result.requestState };
    }
    expect(errorOf(await call(server, 'tools/call', params))).toMatchObject({
      code: -32603,
      data: { reason: 'too-many-rounds', maxRounds: MAX_INPUT_ROUNDS },
    });
  });

  it('accepts inputResponses without a requestState (a state-less handler)', async () => {
    const server = createServer();
    const params = { name: 'open_link', inputResponses: { link: { action: 'accept' } } };
    expect(resultOf(await call(server, 'tools/call', params))).toMatchObject({
      content: [{ text: 'opened' }],
    });
  });

  it('answers -32021 naming the capability when the request did not declare the input kind', async () => {
    const server = createServer();
    expect(errorOf(await call(server, 'tools/call', { name: 'book' }, {}))).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(
      errorOf(await call(server, 'tools/call', { name: 'open_link' }, { elicitation: {} })),
    ).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    expect(
      errorOf(await call(server, 'resources/read', { uri: 'test://summary' }, { roots: {} })),
    ).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });
});

describe('modern requestState refusals (-32602 with data.reason)', () => {
  async function refusal(server: McpServer, params: Record<string, unknown>) {
    const error = errorOf(await call(server, 'tools/call', params));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid requestState/);
    return (error.data as { reason: string }).reason;
  }
  const retry = (state: unknown, args: Record<string, unknown> = { seats: 2 }, name = 'book') => ({
    name,
    arguments: args,
    inputResponses: accepted,
    requestState: state,
  });

  it('refuses a forged or malformed state', async () => {
    const server = createServer();
    const state = (await firstRound(server)).requestState as string;
    // One character of the sealed bytes changed (not the last, whose low bits may be unused).
    const at = state.length - 5;
    const flipped = `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
    expect(await refusal(server, retry(flipped))).toBe('bad-signature');
    expect(await refusal(server, retry('not-a-state'))).toBe('malformed');
    // Sealed by a server with another key: another deployment, or an attacker's own.
    const foreign = (await firstRound(createServer(undefined, 'other-key'))).requestState;
    expect(await refusal(server, retry(foreign))).toBe('bad-signature');
  });

  it('refuses an expired state', async () => {
    const clock = { now: 1_000_000 };
    const server = createServer(clock);
    const state = (await firstRound(server)).requestState;
    clock.now += 10_001;
    expect(await refusal(server, retry(state))).toBe('expired');
  });

  it('refuses a state re-targeted to other arguments, another tool or another method', async () => {
    const server = createServer();
    const state = (await firstRound(server)).requestState;
    expect(await refusal(server, retry(state, { seats: 9 }))).toBe('mismatch');
    expect(await refusal(server, retry(state, { seats: 2 }, 'other'))).toBe('mismatch');
    const asPrompt = errorOf(
      await call(server, 'prompts/get', { name: 'workspace', requestState: state }),
    );
    expect(asPrompt).toMatchObject({ code: -32602, data: { reason: 'mismatch' } });
  });

  it('refuses a replayed state: each state is accepted once', async () => {
    const server = createServer();
    const state = (await firstRound(server)).requestState;
    expect(resultOf(await call(server, 'tools/call', retry(state))).resultType).toBe('complete');
    expect(await refusal(server, retry(state))).toBe('replayed');
  });

  it('opens a state on another instance sharing the key (stateless replicas)', async () => {
    const state = (await firstRound(createServer())).requestState;
    const replica = createServer();
    expect(resultOf(await call(replica, 'tools/call', retry(state))).resultType).toBe('complete');
  });

  it('uses a random key per server by default', async () => {
    const plain = () => {
      const server = new McpServer({ name: 'plain', version: '1.0.0' });
      server.registerTool({
        name: 'ask',
        handler: (_args, context: RequestContext) =>
          context.state === 'mine' ? 'ok' : new InputRequired({ confirm }, 'mine'),
      });
      return server;
    };
    const first = plain();
    const state = resultOf(await call(first, 'tools/call', { name: 'ask' })).requestState;
    const again = { name: 'ask', inputResponses: accepted, requestState: state };
    expect(errorOf(await call(plain(), 'tools/call', again))).toMatchObject({
      code: -32602,
      data: { reason: 'bad-signature' },
    });
    expect(resultOf(await call(first, 'tools/call', again))).toMatchObject({
      content: [{ text: 'ok' }],
    });
  });

  it('rejects unusable requestState options when the server is built', () => {
    expect(() => new McpServer({ name: 'x', version: '1', requestState: { ttlMs: 0 } })).toThrow(
      TypeError,
    );
    expect(() => new McpServer({ name: 'x', version: '1', requestState: { key: '' } })).toThrow(
      TypeError,
    );
  });
});
