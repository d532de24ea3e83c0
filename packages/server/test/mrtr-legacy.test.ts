/**
 * The same input-asking handlers on a legacy session with the real `McpServer`: input requests
 * become real server-to-client requests, and the handler is re-entered with the answers and
 * the state it kept, within the same round bound as modern requests.
 */
import type { InputRequest } from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import { InputRequired } from '../src/api';
import { startLegacySession } from '../src/legacy/start-session';
import { MAX_INPUT_ROUNDS } from '../src/mrtr/rounds';
import { McpServer } from '../src/server';
import { TestPeer } from './support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from './support/responses';

useCleanups();

function createServer() {
  const server = new McpServer({ name: 'mrtr-legacy', version: '1.0.0' });
  // Asks one question per step, keeping the answers so far in its state.
  server.registerTool({
    name: 'survey',
    inputSchema: { type: 'object', properties: { questions: { type: 'number' } } },
    handler: (args: { questions: number }, context) => {
      const answers = [...((context.state as string[] | undefined) ?? [])];
      const last = context.inputResponses?.next as { content?: { answer?: string } } | undefined;
      if (last?.content?.answer !== undefined) answers.push(last.content.answer);
      if (answers.length >= args.questions) return `answers: ${answers.join(',')}`;
      throw new InputRequired(
        {
          next: {
            method: 'elicitation/create',
            params: {
              message: `Question ${answers.length + 1}?`,
              requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } },
            },
          },
        },
        answers,
      );
    },
  });
  server.registerPrompt({
    name: 'workspace',
    get: (_args, context) => {
      const roots = context.inputResponses?.roots as { roots: { uri: string }[] } | undefined;
      if (roots === undefined) return new InputRequired({ roots: { method: 'roots/list' } });
      const text = `roots: ${roots.roots.map((r) => r.uri)}`;
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  });
  server.registerResource({
    uri: 'test://summary',
    name: 'summary',
    read: (uri, context) => {
      const summary = context.inputResponses?.summary as { content: { text: string } } | undefined;
      if (summary === undefined) {
        const request: InputRequest = {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
            maxTokens: 9,
          },
        };
        return new InputRequired({ summary: request }, 'kept');
      }
      return { contents: [{ uri: uri.href, text: `${context.state}: ${summary.content.text}` }] };
    },
  });
  return server;
}

/** A legacy client that answers the server's requests like a user would. */
async function open(capabilities: Record<string, unknown>) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  let asked = 0;
  await startLegacySession(createServer(), serverEnd, { requestTimeoutMs: 2_000 });
  const peer = new TestPeer(clientEnd, (request) => {
    asked += 1;
    switch (request.method) {
      case 'roots/list':
        return { roots: [{ uri: 'file:///src' }] };
      case 'sampling/createMessage':
        return { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'm' };
      default:
        return { action: 'accept', content: { answer: `a${asked}` } };
    }
  });
  await peer.start();
  cleanups.push(() => peer.close());
  const init = await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'legacy', version: '1.0.0' },
  });
  expect('result' in init).toBe(true);
  await peer.notify('notifications/initialized');
  return peer;
}

const ALL_INPUT = { elicitation: {}, sampling: {}, roots: {} };

describe('legacy multi-round-trip requests', () => {
  it('re-enters a tool with the answers and the state it kept, round after round', async () => {
    const peer = await open(ALL_INPUT);
    const result = resultOf(
      await peer.request('tools/call', { name: 'survey', arguments: { questions: 3 } }),
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'answers: a1,a2,a3' }] });
    expect(peer.serverRequests.map((r) => r.params?.message)).toEqual([
      'Question 1?',
      'Question 2?',
      'Question 3?',
    ]);
  });

  it('serves a prompt and a resource read that ask for input', async () => {
    const peer = await open(ALL_INPUT);
    expect(resultOf(await peer.request('prompts/get', { name: 'workspace' }))).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'roots: file:///src' } }],
    });
    expect(resultOf(await peer.request('resources/read', { uri: 'test://summary' }))).toEqual({
      contents: [{ uri: 'test://summary', text: 'kept: short' }],
    });
    expect(peer.serverRequests.map((r) => r.method)).toEqual([
      'roots/list',
      'sampling/createMessage',
    ]);
  });

  it(`fails with -32603 when a handler asks more than ${MAX_INPUT_ROUNDS} times`, async () => {
    const peer = await open(ALL_INPUT);
    const response = await peer.request('tools/call', {
      name: 'survey',
      arguments: { questions: 100 },
    });
    expect(errorOf(response)).toMatchObject({
      code: -32603,
      data: { reason: 'too-many-rounds', maxRounds: MAX_INPUT_ROUNDS },
    });
    expect(peer.serverRequests).toHaveLength(MAX_INPUT_ROUNDS);
  });

  it('answers -32021 without asking when the session did not declare the input kind', async () => {
    const peer = await open({ elicitation: {} });
    expect(errorOf(await peer.request('resources/read', { uri: 'test://summary' }))).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    expect(peer.serverRequests).toEqual([]);
  });
});
