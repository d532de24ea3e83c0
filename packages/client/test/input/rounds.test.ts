import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it, vi } from 'vitest';
import { InputAnswerer } from '../../src/input/answerer';
import { type RetryExtra, runInputRounds } from '../../src/input/rounds';

const complete = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };
const elicit = (message: string) => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties: {} } },
});

function answerer() {
  return new InputAnswerer({
    elicitation: async (params) => ({ action: 'accept', content: { said: params.message } }),
    roots: async () => ({ roots: [{ uri: 'file:///r' }] }),
  });
}

/** A scripted server: each retry returns the next result and records what it was sent. */
function scripted(results: Record<string, unknown>[]) {
  const sent: RetryExtra[] = [];
  const retry = async (extra: RetryExtra) => {
    sent.push(extra);
    const next = results.shift();
    if (!next) throw new Error('no more scripted results');
    return next;
  };
  return { sent, retry };
}

describe('runInputRounds', () => {
  it('returns a complete first result without retrying', async () => {
    const { sent, retry } = scripted([]);
    const result = await runInputRounds({
      first: complete,
      retry,
      answerer: answerer(),
      maxRounds: 3,
      era: 'modern',
    });
    expect(result).toBe(complete);
    expect(sent).toEqual([]);
  });

  it('answers every input request and retries until complete, over several rounds', async () => {
    const state = 'état-🔒\u0000 "x"\\n  ';
    const { sent, retry } = scripted([
      { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } },
      complete,
    ]);
    const result = await runInputRounds({
      first: {
        resultType: 'input_required',
        inputRequests: { a: elicit('one'), b: elicit('two') },
        requestState: state,
      },
      retry,
      answerer: answerer(),
      maxRounds: 2,
      era: 'modern',
    });
    expect(result).toBe(complete);
    expect(sent).toEqual([
      {
        inputResponses: {
          a: { action: 'accept', content: { said: 'one' } },
          b: { action: 'accept', content: { said: 'two' } },
        },
        requestState: state,
      },
      { inputResponses: { r: { roots: [{ uri: 'file:///r' }] } } },
    ]);
    // Byte-exact echo; no requestState key at all when none was given.
    expect(sent[0]?.requestState).toBe(state);
    expect('requestState' in (sent[1] ?? {})).toBe(false);
  });

  it('retries at once with only the requestState when there are no input requests', async () => {
    const { sent, retry } = scripted([complete]);
    await runInputRounds({
      first: { resultType: 'input_required', requestState: 'busy' },
      retry,
      answerer: answerer(),
      maxRounds: 1,
      era: 'modern',
    });
    expect(sent).toEqual([{ requestState: 'busy' }]);
    expect('inputResponses' in (sent[0] ?? {})).toBe(false);
  });

  it('leaves out answers that failed and reports them', async () => {
    const onAnswerError = vi.fn();
    const { sent, retry } = scripted([complete]);
    await runInputRounds({
      first: {
        resultType: 'input_required',
        inputRequests: {
          ok: elicit('fine'),
          nope: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
          odd: 'not a request',
        },
      },
      retry,
      answerer: answerer(),
      maxRounds: 1,
      era: 'legacy',
      onAnswerError,
    });
    expect(sent).toEqual([
      { inputResponses: { ok: { action: 'accept', content: { said: 'fine' } } } },
    ]);
    expect(onAnswerError).toHaveBeenCalledTimes(2);
    expect(onAnswerError.mock.calls.map((call) => [call[0], call[1]])).toEqual([
      ['nope', 'sampling/createMessage'],
      ['odd', ''],
    ]);
  });

  it('gives up with TOO_MANY_ROUNDS when the server never completes', async () => {
    let retries = 0;
    const forever = { resultType: 'input_required', requestState: 'again' };
    const error = await runInputRounds({
      first: forever,
      retry: async () => {
        retries++;
        if (retries > 100) throw new Error('unbounded');
        return forever;
      },
      answerer: answerer(),
      maxRounds: 4,
      era: 'modern',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'TOO_MANY_ROUNDS', details: { rounds: 4 } });
    expect(retries).toBe(4);
  });

  it('passes the signal and era to the handlers', async () => {
    const controller = new AbortController();
    const contexts: unknown[] = [];
    const answer = new InputAnswerer({
      roots: async (ctx) => {
        contexts.push(ctx);
        return { roots: [] };
      },
    });
    await runInputRounds({
      first: { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } },
      retry: async () => complete,
      answerer: answer,
      maxRounds: 1,
      signal: controller.signal,
      era: 'legacy',
    });
    expect(contexts).toEqual([{ signal: controller.signal, era: 'legacy' }]);
  });

  it('stops with REQUEST_ABORTED when aborted while a handler is still answering', async () => {
    const controller = new AbortController();
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const retry = vi.fn(async () => complete);
    const answer = new InputAnswerer({
      // Ignores the signal on purpose: the round must not wait for it.
      elicitation: () => {
        started();
        return new Promise(() => {});
      },
    });
    const running = runInputRounds({
      first: { resultType: 'input_required', inputRequests: { a: elicit('wait') } },
      retry,
      answerer: answer,
      maxRounds: 1,
      signal: controller.signal,
      era: 'modern',
    });
    await handlerStarted;
    const reason = new Error('user left');
    controller.abort(reason);
    const error = await running.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REQUEST_ABORTED', cause: reason });
    expect(retry).not.toHaveBeenCalled();
  });

  it('stops with REQUEST_ABORTED when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await runInputRounds({
      first: { resultType: 'input_required', requestState: 's' },
      retry: async () => complete,
      answerer: answerer(),
      maxRounds: 1,
      signal: controller.signal,
      era: 'modern',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REQUEST_ABORTED' });
  });
});
