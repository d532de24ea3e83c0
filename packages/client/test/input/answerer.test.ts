import { ProtocolError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { InputAnswerer } from '../../src/input/answerer';
import type { InputContext } from '../../src/types';

const context: InputContext = { signal: new AbortController().signal, era: 'modern' };
const form = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
const sampling = {
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 5,
};

describe('InputAnswerer capabilities', () => {
  it('declares nothing without handlers', () => {
    expect(new InputAnswerer(undefined).capabilities).toEqual({});
    expect(new InputAnswerer({}).capabilities).toEqual({});
  });

  it('declares each capability a handler exists for', () => {
    const answerer = new InputAnswerer({
      elicitation: async () => ({ action: 'cancel' }),
      sampling: async () => ({ role: 'assistant', content: {}, model: 'm' }),
      roots: async () => ({ roots: [] }),
    });
    expect(answerer.capabilities).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: {},
      roots: {},
    });
  });

  it('declares only the chosen elicitation modes', () => {
    const answerer = new InputAnswerer({
      elicitation: async () => ({ action: 'cancel' }),
      elicitationModes: ['form'],
    });
    expect(answerer.capabilities).toEqual({ elicitation: { form: {} } });
  });
});

describe('InputAnswerer.answer', () => {
  it('passes params and context to the handlers', async () => {
    const seen: unknown[] = [];
    const answerer = new InputAnswerer({
      elicitation: async (params, ctx) => {
        seen.push(params, ctx);
        return { action: 'accept', content: { name: 'Ada' } };
      },
      sampling: async (params, ctx) => {
        seen.push(params, ctx);
        return { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm' };
      },
      roots: async (ctx) => {
        seen.push(ctx);
        return { roots: [{ uri: 'file:///w' }] };
      },
    });
    expect(await answerer.answer('elicitation/create', form, context)).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    });
    expect(await answerer.answer('sampling/createMessage', sampling, context)).toMatchObject({
      model: 'm',
    });
    expect(await answerer.answer('roots/list', undefined, context)).toEqual({
      roots: [{ uri: 'file:///w' }],
    });
    expect(seen).toEqual([form, context, sampling, context, context]);
  });

  it('declines an elicitation whose handler throws', async () => {
    const answerer = new InputAnswerer({
      elicitation: async () => {
        throw new Error('no UI');
      },
    });
    expect(await answerer.answer('elicitation/create', form, context)).toEqual({
      action: 'decline',
    });
  });

  it('rejects an elicitation mode that was not declared', async () => {
    const answerer = new InputAnswerer({
      elicitation: async () => ({ action: 'accept' }),
      elicitationModes: ['form'],
    });
    const url = { mode: 'url', message: 'Open', url: 'https://example.com' };
    await expect(answerer.answer('elicitation/create', url, context)).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('answers -32601 when no handler exists', async () => {
    const answerer = new InputAnswerer({ roots: async () => ({ roots: [] }) });
    for (const method of ['elicitation/create', 'sampling/createMessage', 'ping', 'tools/list']) {
      const error = await answerer.answer(method, {}, context).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: -32601 });
    }
  });

  it('turns a throwing sampling or roots handler into -32603, keeping ProtocolErrors', async () => {
    const answerer = new InputAnswerer({
      sampling: async () => {
        throw new Error('model offline');
      },
      roots: async () => {
        throw new ProtocolError(-1, 'User rejected');
      },
    });
    await expect(
      answerer.answer('sampling/createMessage', sampling, context),
    ).rejects.toMatchObject({ code: -32603, message: 'model offline' });
    await expect(answerer.answer('roots/list', undefined, context)).rejects.toMatchObject({
      code: -1,
      message: 'User rejected',
    });
  });
});
