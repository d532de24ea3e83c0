import { type InputRequest, ProtocolError } from '@twofold/protocol/experimental';
import { InputRequired, type McpServer } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import {
  connectLegacy,
  createTestServer,
  eventually,
  recordingHooks,
  useLegacyCleanups,
} from '../support/legacy-harness';

useLegacyCleanups();

/** Tools that ask the client for input the legacy way (server-to-client requests). */
function serverWithInputs(): McpServer {
  const server = createTestServer();
  const asking = (key: string, request: InputRequest) =>
    server.registerTool({
      name: `ask-${key}`,
      handler: (_args, context) => {
        const answer = context.inputResponses?.[key];
        if (answer === undefined) throw new InputRequired({ [key]: request });
        return JSON.stringify(answer);
      },
    });
  asking('name', {
    method: 'elicitation/create',
    params: {
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    },
  });
  asking('summary', {
    method: 'sampling/createMessage',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
      maxTokens: 10,
    },
  });
  asking('roots', { method: 'roots/list' });
  return server;
}

function answers(method: string): Record<string, unknown> {
  switch (method) {
    case 'elicitation/create':
      return { action: 'accept', content: { name: 'Ada' } };
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'm' };
    default:
      return { roots: [{ uri: 'file:///src' }] };
  }
}

function textOf(result: Record<string, unknown>): unknown {
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? 'null');
}

describe('server requests on a legacy session', () => {
  it('answers elicitation, sampling and roots through hooks.answerInput', async () => {
    const recorded = recordingHooks({}, answers);
    const { session } = await connectLegacy(serverWithInputs(), { recorded });
    expect(textOf(await session.request('tools/call', { name: 'ask-name' }))).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    });
    expect(textOf(await session.request('tools/call', { name: 'ask-summary' }))).toMatchObject({
      model: 'm',
    });
    expect(textOf(await session.request('tools/call', { name: 'ask-roots' }))).toEqual({
      roots: [{ uri: 'file:///src' }],
    });
    expect(recorded.inputs.map((i) => [i.method, i.era])).toEqual([
      ['elicitation/create', 'legacy'],
      ['sampling/createMessage', 'legacy'],
      ['roots/list', 'legacy'],
    ]);
    expect(recorded.inputs[0]?.params).toMatchObject({ message: 'Your name?' });
  });

  it('answers ping with {} and an unknown method with -32601', async () => {
    const recorded = recordingHooks();
    const { serverSession } = await connectLegacy(createTestServer(), {
      recorded,
      serverRequests: true,
    });
    expect(await serverSession?.request('ping')).toEqual({});
    const error = await serverSession?.request('tasks/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32601 });
    expect(recorded.inputs).toEqual([]);
  });

  it('answers -32601 for a request the negotiated revision lacks, -32602 for bad params', async () => {
    const recorded = recordingHooks({}, answers);
    const old = await connectLegacy(createTestServer(), {
      recorded,
      version: '2024-11-05',
      serverRequests: true,
    });
    await expect(
      old.serverSession?.request('elicitation/create', {
        message: 'x',
        requestedSchema: { type: 'object', properties: {} },
      }),
    ).rejects.toMatchObject({ code: -32601 });
    const current = await connectLegacy(createTestServer(), {
      recorded,
      serverRequests: true,
    });
    await expect(
      current.serverSession?.request('sampling/createMessage', { maxTokens: 'many' }),
    ).rejects.toMatchObject({ code: -32602 });
    expect(recorded.inputs).toEqual([]);
  });

  it('passes a handler failure on as an error response', async () => {
    const recorded = recordingHooks();
    const { serverSession } = await connectLegacy(createTestServer(), {
      recorded,
      serverRequests: true,
    });
    await expect(serverSession?.request('roots/list')).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('no answer for roots/list'),
    });
    expect(recorded.inputs.map((i) => i.method)).toEqual(['roots/list']);
  });

  it('aborts the answer when the server cancels its request', async () => {
    let signal: AbortSignal | undefined;
    const recorded = recordingHooks({
      answerInput: (_method, _params, context) => {
        signal = context.signal;
        return new Promise(() => undefined);
      },
    });
    const { serverSession } = await connectLegacy(createTestServer(), {
      recorded,
      serverRequests: true,
    });
    const controller = new AbortController();
    const asked = serverSession?.request('roots/list', undefined, { signal: controller.signal });
    await eventually(() => signal !== undefined);
    controller.abort();
    await expect(asked).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
    await eventually(() => signal?.aborted === true);
  });

  it('reports every server notification to hooks.onNotification', async () => {
    const recorded = recordingHooks();
    const server = createTestServer();
    await connectLegacy(server, { recorded });
    server.registerTool({ name: 'late', handler: () => 'ok' });
    await eventually(() => recorded.notifications.length > 0);
    expect(recorded.notifications).toEqual([
      { method: 'notifications/tools/list_changed', params: undefined },
    ]);
  });
});
