/**
 * `context.inputResponse(key)` in both eras: the answer is checked against the input request
 * the handler sent under that key (its method's result shape, and an accepted form's
 * `requestedSchema`), a mismatch is -32602 on the wire, and an answer to nothing asked is no
 * answer.
 */
import {
  createRequest,
  type InputRequest,
  type JsonRpcResponse,
} from '@twofold/protocol/experimental';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import { InputRequired, type RequestContext } from '../src/api';
import { startLegacySession } from '../src/legacy/start-session';
import { handleModernRequest } from '../src/modern/dispatch';
import { InputResponseError } from '../src/mrtr/input-responses';
import { McpServer } from '../src/server';
import { modernParams, TestPeer } from './support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from './support/responses';

useCleanups();

const confirm: InputRequest = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Book it?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  },
};
const INPUT = { elicitation: { form: {} }, roots: {} };

/** Books when the checked answer says so; a wrong answer is handled by the handler itself. */
function createServer() {
  const server = new McpServer({ name: 'answers', version: '1.0.0' });
  server.registerTool({
    name: 'book',
    handler: (_args, context: RequestContext) => {
      const answer = context.inputResponse('confirm');
      if (answer === undefined) return new InputRequired({ confirm }, 'asked');
      if (!('action' in answer) || answer.action !== 'accept') return 'not booked';
      return `booked: ${JSON.stringify(answer.content)}`;
    },
  });
  server.registerTool({
    name: 'patient',
    handler: (_args, context: RequestContext) => {
      try {
        if (context.inputResponse('confirm') !== undefined) return 'booked';
      } catch (error) {
        if (!(error instanceof InputResponseError)) throw error;
        // Asking again, with the reason, is the handler's choice.
        return new InputRequired({ confirm }, `retry after ${error.issues.join('; ')}`);
      }
      return new InputRequired({ confirm });
    },
  });
  return server;
}

let nextId = 1;
function call(server: McpServer, params: Record<string, unknown>): Promise<JsonRpcResponse> {
  const request = createRequest(nextId++, 'tools/call', modernParams(params, {}, INPUT));
  return handleModernRequest(server, request, {
    signal: new AbortController().signal,
    notify: async () => undefined,
  });
}

/** The first round of `name`, then its retry with `inputResponses`. */
async function answered(server: McpServer, name: string, inputResponses: Record<string, unknown>) {
  const first = resultOf(await call(server, { name }));
  expect(first.resultType).toBe('input_required');
  return call(server, { name, inputResponses, requestState: first.requestState });
}

describe('modern: checked input responses', () => {
  it('hands over an answer that fits the requested schema', async () => {
    const retry = await answered(createServer(), 'book', {
      confirm: { action: 'accept', content: { ok: true } },
    });
    expect(resultOf(retry)).toMatchObject({ content: [{ text: 'booked: {"ok":true}' }] });
  });

  it('answers -32602 for content that does not fit the requested schema', async () => {
    const server = createServer();
    for (const content of [{ ok: 'yes' }, {}, undefined]) {
      const error = errorOf(
        await answered(server, 'book', { confirm: { action: 'accept', content } }),
      );
      expect(error).toMatchObject({
        code: -32602,
        data: { reason: 'invalid-input-response', key: 'confirm' },
      });
      expect(error.message).toContain('"confirm"');
    }
  });

  it('answers -32602 for the result of another kind of input', async () => {
    const error = errorOf(await answered(createServer(), 'book', { confirm: { roots: [] } }));
    expect(error).toMatchObject({ code: -32602, data: { reason: 'invalid-input-response' } });
  });

  it('does not check the content of a decline, which carries none', async () => {
    const retry = await answered(createServer(), 'book', { confirm: { action: 'decline' } });
    expect(resultOf(retry)).toMatchObject({ content: [{ text: 'not booked' }] });
  });

  it('ignores an answer to a question that was not asked (first attempt or other key)', async () => {
    const server = createServer();
    const unasked = resultOf(
      await call(server, {
        name: 'book',
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      }),
    );
    expect(unasked.resultType).toBe('input_required');
    const other = resultOf(
      await answered(server, 'book', { other: { action: 'accept', content: { ok: true } } }),
    );
    expect(other.resultType).toBe('input_required');
  });

  it('throws a typed error a handler can catch to ask again', async () => {
    const retry = resultOf(
      await answered(createServer(), 'patient', {
        confirm: { action: 'accept', content: { ok: 'yes' } },
      }),
    );
    expect(retry.resultType).toBe('input_required');
  });
});

/** A legacy session whose client answers every elicitation with `content`. */
async function legacyPeer(content: unknown) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await startLegacySession(createServer(), serverEnd, { requestTimeoutMs: 5_000 });
  const peer = new TestPeer(clientEnd, () => ({ action: 'accept', content }));
  await peer.start();
  cleanups.push(() => peer.close());
  const init = await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: {} },
    clientInfo: { name: 'legacy', version: '1.0.0' },
  });
  expect('result' in init).toBe(true);
  await peer.notify('notifications/initialized');
  return peer;
}

describe('legacy: checked input responses', () => {
  it('hands over an answer that fits the requested schema', async () => {
    const peer = await legacyPeer({ ok: false });
    expect(resultOf(await peer.request('tools/call', { name: 'book' }))).toMatchObject({
      content: [{ text: 'booked: {"ok":false}' }],
    });
  });

  it('answers the request with -32602 when the elicitation answer does not fit', async () => {
    const peer = await legacyPeer({ ok: 'yes' });
    expect(errorOf(await peer.request('tools/call', { name: 'book' }))).toMatchObject({
      code: -32602,
      data: { reason: 'invalid-input-response', key: 'confirm' },
    });
    expect(peer.serverRequests).toHaveLength(1);
  });
});
