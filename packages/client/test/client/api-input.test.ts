/**
 * The same input handlers answer a real twofold server in both eras: modern `input_required`
 * rounds and legacy server-to-client requests. Manual mode, and a throwing handler.
 */
import {
  type ElicitRequestParams,
  ErrorCode,
  type InputRequiredResult,
  type LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { InputRequired, type ServedConnection } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import type { InputContext, InputHandlers } from '../../src/types';
import {
  connectClient,
  deferred,
  ERAS,
  type Era,
  rejectionOf,
  serveTarget,
  useClientCleanups,
} from '../support/client-harness';
import {
  addInputTools,
  buildApiServer,
  FORM_REQUEST,
  ROOTS_REQUEST,
  SAMPLING_REQUEST,
  URL_REQUEST,
} from '../support/client-server';

useClientCleanups();

const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'a summary' },
  model: 'test-model',
  stopReason: 'endTurn',
};
const ROOTS = { roots: [{ uri: 'file:///work', name: 'work' }] };

/** Handlers that answer every kind of input and record what they were asked. */
function recordingHandlers() {
  const seen: { kind: string; params: unknown; era: string; signal: boolean }[] = [];
  const note = (kind: string, params: unknown, context: InputContext) =>
    seen.push({ kind, params, era: context.era, signal: context.signal instanceof AbortSignal });
  const handlers: InputHandlers = {
    elicitation: async (params: ElicitRequestParams, context) => {
      note('elicitation', params, context);
      return params.mode === 'url'
        ? { action: 'accept' }
        : { action: 'accept', content: { name: 'Ada' } };
    },
    sampling: async (params, context) => {
      note('sampling', params, context);
      return SAMPLED as never;
    },
    roots: async (context) => {
      note('roots', undefined, context);
      return ROOTS;
    },
  };
  return { handlers, seen };
}

async function setup(era: Era, handlers: InputHandlers) {
  const server = buildApiServer();
  addInputTools(server);
  const served = serveTarget(server);
  const connected = await connectClient(served.target, { era, handlers });
  return { server, served, ...connected };
}

/** What the input tools return: the answers they got, their state, the era. */
function answersOf(result: { structuredContent?: unknown }) {
  return result.structuredContent as {
    answers: Record<string, unknown>;
    state: unknown;
    era: string;
  };
}

describe.each(ERAS)('McpClient input handlers (%s)', (era) => {
  it('answers a form elicitation', async () => {
    const { handlers, seen } = recordingHandlers();
    const { client, served } = await setup(era, handlers);
    const out = answersOf(await client.callTool('ask_form'));
    expect(out.answers).toEqual({ form: { action: 'accept', content: { name: 'Ada' } } });
    expect(out.state).toEqual({ round: 1 });
    expect(out.era).toBe(era);
    expect(seen).toEqual([
      {
        kind: 'elicitation',
        params: expect.objectContaining(FORM_REQUEST.params),
        era,
        signal: true,
      },
    ]);
    // Modern: a second tools/call carries the answers; legacy: one call, one server request.
    expect(served.requests('tools/call')).toHaveLength(era === 'modern' ? 2 : 1);
    if (era === 'legacy') {
      // The server's elicitation/create request got the handler's answer as its response.
      expect(served.received).toContainEqual(
        expect.objectContaining({ result: { action: 'accept', content: { name: 'Ada' } } }),
      );
    } else {
      const retry = served.requests('tools/call')[1];
      expect(retry?.params).toMatchObject({
        name: 'ask_form',
        inputResponses: { form: { action: 'accept', content: { name: 'Ada' } } },
        requestState: expect.any(String),
      });
    }
  });

  it('answers a URL-mode elicitation', async () => {
    const { handlers, seen } = recordingHandlers();
    const { client } = await setup(era, handlers);
    const out = answersOf(await client.callTool('ask_url'));
    expect(out.answers).toEqual({ link: { action: 'accept' } });
    expect(seen[0]?.params).toMatchObject({ mode: 'url', url: URL_REQUEST.params.url });
  });

  it('answers sampling and roots', async () => {
    const { handlers, seen } = recordingHandlers();
    const { client } = await setup(era, handlers);
    expect(answersOf(await client.callTool('ask_sampling')).answers).toEqual({ sample: SAMPLED });
    expect(answersOf(await client.callTool('ask_roots')).answers).toEqual({ roots: ROOTS });
    expect(seen.map((s) => s.kind)).toEqual(['sampling', 'roots']);
    expect(seen[0]?.params).toMatchObject(SAMPLING_REQUEST.params);
  });

  it('answers every kind in one round', async () => {
    const { handlers, seen } = recordingHandlers();
    const { client } = await setup(era, handlers);
    const out = answersOf(await client.callTool('ask_all'));
    expect(out.answers).toEqual({
      form: { action: 'accept', content: { name: 'Ada' } },
      link: { action: 'accept' },
      sample: SAMPLED,
      roots: ROOTS,
    });
    expect(seen.map((s) => s.kind).sort()).toEqual([
      'elicitation',
      'elicitation',
      'roots',
      'sampling',
    ]);
    expect(seen.every((s) => s.era === era)).toBe(true);
  });

  it('declines when the elicitation handler throws, and keeps working', async () => {
    let calls = 0;
    const { client } = await setup(era, {
      elicitation: async () => {
        calls++;
        throw new Error('no user at the keyboard');
      },
    });
    const out = answersOf(await client.callTool('ask_form'));
    expect(out.answers).toEqual({ form: { action: 'decline' } });
    expect(calls).toBe(1);
    expect((await client.callTool('echo', { text: 'still here' })).content).toEqual([
      { type: 'text', text: 'echo: still here' },
    ]);
  });

  it('goes on when a sampling handler throws (legacy: an error answer; modern: no answer)', async () => {
    const { client } = await setup(era, {
      sampling: async () => {
        throw new Error('no model');
      },
    });
    const outcome = await client.callTool('ask_sampling').then(
      (result) => answersOf(result).answers,
      (error: Error) => error,
    );
    if (era === 'modern') expect(outcome).toEqual({});
    else expect(outcome).toMatchObject({ code: ErrorCode.InternalError, message: /no model/ });
    expect((await client.callTool('whisper')).content).toEqual([{ type: 'text', text: 'psst' }]);
  });

  it('stops a pending handler when the caller aborts (REQUEST_ABORTED)', async () => {
    const asked = deferred<AbortSignal>();
    const { client } = await setup(era, {
      elicitation: (_params, context) => {
        asked.resolve(context.signal);
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const pending = client.callTool('ask_form', undefined, { signal: controller.signal });
    const signal = await asked.promise;
    controller.abort(new Error('stop'));
    const error = await rejectionOf(pending);
    expect((error as LocalError).code).toBe(LocalErrorCode.RequestAborted);
    expect(signal.aborted).toBe(true);
    expect((await client.callTool('whisper')).content).toEqual([{ type: 'text', text: 'psst' }]);
  });

  it('stops a pending handler when the connection ends (CONNECTION_CLOSED)', async () => {
    for (const end of ['client', 'server'] as const) {
      const asked = deferred<AbortSignal>();
      const { client, served } = await setup(era, {
        elicitation: (_params, context) => {
          asked.resolve(context.signal);
          return new Promise(() => {});
        },
      });
      const pending = client.callTool('ask_form');
      const signal = await asked.promise;
      if (end === 'client') await client.close();
      else await (await (served.connections[0] as Promise<ServedConnection>)).close();
      const error = await rejectionOf(pending);
      expect((error as LocalError).code, end).toBe(LocalErrorCode.ConnectionClosed);
      expect(signal.aborted, end).toBe(true);
    }
  });

  it('declares the capabilities of the handlers it has', async () => {
    const { handlers } = recordingHandlers();
    const { served } = await setup(era, { ...handlers, elicitationModes: ['form'] });
    const opening = served.received.find(
      (m) => 'method' in m && (m.method === 'initialize' || m.method === 'server/discover'),
    ) as { params: Record<string, unknown> } | undefined;
    const params = opening?.params ?? {};
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const caps =
      era === 'legacy' ? params.capabilities : meta['io.modelcontextprotocol/clientCapabilities'];
    expect(caps).toEqual({ elicitation: { form: {} }, sampling: {}, roots: {} });
  });
});

describe('McpClient manual input mode', () => {
  it('modern: returns the InputRequiredResult; resuming with the answers completes', async () => {
    const { handlers, seen } = recordingHandlers();
    const { client, served } = await setup('modern', handlers);
    const first = await client.callTool('ask_form', undefined, { inputMode: 'manual' });
    expect(first.resultType).toBe('input_required');
    const interim = first as InputRequiredResult;
    expect(interim.inputRequests).toEqual({ form: FORM_REQUEST });
    expect(interim.requestState).toEqual(expect.any(String));
    expect(seen).toHaveLength(0);

    const inputResponses = { form: { action: 'accept', content: { name: 'Grace' } } };
    const done = await client.callTool('ask_form', undefined, {
      inputMode: 'manual',
      inputResponses,
      requestState: interim.requestState as string,
    });
    expect(done.resultType).toBe('complete');
    expect(answersOf(done as { structuredContent?: unknown })).toEqual({
      answers: inputResponses,
      state: { round: 1 },
      era: 'modern',
    });
    expect(served.requests('tools/call')[1]?.params).toMatchObject({
      requestState: interim.requestState,
      inputResponses,
    });
    expect(seen).toHaveLength(0);
  });

  it('modern: manual mode works for prompts and resources that need input', async () => {
    const { handlers } = recordingHandlers();
    const { client, server } = await setup('modern', handlers);
    server.registerPrompt({
      name: 'rooted',
      get: (_args, context) => {
        const roots = context.inputResponses?.roots as typeof ROOTS | undefined;
        if (roots === undefined) return new InputRequired({ roots: ROOTS_REQUEST });
        const text = roots.roots.map((r) => r.uri).join(',');
        return { messages: [{ role: 'user', content: { type: 'text', text } }] };
      },
    });
    const first = await client.getPrompt('rooted', undefined, { inputMode: 'manual' });
    expect(first).toMatchObject({ resultType: 'input_required' });
    const state = (first as InputRequiredResult).requestState as string;
    const done = await client.getPrompt('rooted', undefined, {
      inputMode: 'manual',
      inputResponses: { roots: ROOTS },
      requestState: state,
    });
    expect(done).toMatchObject({ messages: [{ content: { text: 'file:///work' } }] });
    // In auto mode the handler answers the same prompt.
    const auto = await client.getPrompt('rooted');
    expect(auto.messages[0]?.content).toEqual({ type: 'text', text: 'file:///work' });
  });

  it('legacy: the server asks by request, so the handlers answer even in manual mode', async () => {
    const { handlers, seen } = recordingHandlers();
    const { client } = await setup('legacy', handlers);
    const result = await client.callTool('ask_form', undefined, { inputMode: 'manual' });
    expect(result.resultType).not.toBe('input_required');
    expect(answersOf(result as { structuredContent?: unknown }).answers).toEqual({
      form: { action: 'accept', content: { name: 'Ada' } },
    });
    expect(seen).toHaveLength(1);
  });
});
