/**
 * Tools that need input, across the registry boundary, against a real twofold server: modern
 * `input_required` rounds (answered by a resolver, or handed to the host to resume later) and
 * legacy server-to-client requests (answered by the client handlers the provider builds from
 * its resolver), and a tool that never stops asking.
 */
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_ROUNDS } from '../../src/import/adapted-tool';
import { InputRoundsExceededError } from '../../src/import/errors';
import type { InputRequiredOutcome } from '../../src/registry/types';
import { ACCEPT_GRACE, askingServer, recordingResolver } from './support/asking-server';
import { useImportEnv } from './support/env';
import { ctx, newProvider, textOf } from './support/events';
import { forgetRequestState, httpTarget, memoryTarget } from './support/servers';

useImportEnv();

type Era = 'modern' | 'legacy';

async function connected(
  era: Era,
  options: { resolver?: ReturnType<typeof recordingResolver> } = {},
  wrap?: Parameters<typeof memoryTarget>[2],
) {
  const { registry, log, provider } = newProvider(
    options.resolver ? { resolver: options.resolver } : {},
  );
  const { target } = memoryTarget(askingServer(), `asking-${era}`, wrap);
  const client = await provider.connect('asking', target, { client: { era } });
  expect(client.era).toBe(era);
  const tool = (name: string) => {
    const found = registry.get(name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  return { registry, log, provider, tool };
}

describe.each(['modern', 'legacy'] as const)('with the provider resolver (%s)', (era) => {
  it('invoke answers every round and returns the final result', async () => {
    const resolver = recordingResolver();
    const { tool } = await connected(era, { resolver });
    expect(textOf(await tool('greet').invoke({}, ctx()))).toBe('Hello, Ada!');
    expect(textOf(await tool('two_step').invoke({}, ctx()))).toBe('Ada likes teal');
    expect(textOf(await tool('survey').invoke({}, ctx()))).toBe(
      'Ada works in file:///projects/demo',
    );
    // Each request is attributed to the one tool being called.
    expect(resolver.asked.slice(0, 3)).toEqual([
      'elicitation/create greet',
      'elicitation/create two_step',
      'elicitation/create two_step',
    ]);
    // The requests of one round are answered concurrently: their order is not fixed.
    expect(resolver.asked.slice(3).sort()).toEqual([
      'elicitation/create survey',
      'roots/list survey',
    ]);
  });

  it('a resolver given to one call overrides the provider resolver', async () => {
    const resolver = recordingResolver();
    const own = recordingResolver();
    const { tool } = await connected(era, { resolver });
    expect(textOf(await tool('greet').invoke({}, ctx({ resolver: own })))).toBe('Hello, Ada!');
    expect(own.asked).toEqual(['elicitation/create greet']);
    expect(resolver.asked).toEqual([]);
  });
});

describe('legacy requests while several calls run', () => {
  it('are not attributed to a tool, and go to the provider resolver', async () => {
    // All three requests must arrive before any is answered: both calls are surely running.
    const resolver = recordingResolver(3);
    const { tool } = await connected('legacy', { resolver });
    const [greeted, surveyed] = await Promise.all([
      tool('greet').invoke({}, ctx({ resolver: recordingResolver() })),
      tool('survey').invoke({}, ctx({ resolver: recordingResolver() })),
    ]);
    expect(textOf(greeted)).toBe('Hello, Ada!');
    expect(textOf(surveyed)).toBe('Ada works in file:///projects/demo');
    // Two calls with different resolvers: whose request is whose is unknown.
    expect(resolver.asked.sort()).toEqual([
      'elicitation/create ',
      'elicitation/create ',
      'roots/list ',
    ]);
  });
});

describe('without a resolver (modern)', () => {
  it('invoke settles with an InputRequiredOutcome the host resumes later', async () => {
    const { tool } = await connected('modern');
    const first = (await tool('two_step').invoke({}, ctx())) as InputRequiredOutcome;
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create' } },
      state: { requestState: expect.any(String) },
    });
    // The state may be stored as JSON meanwhile.
    const stored = JSON.parse(JSON.stringify(first.state));
    const second = (await tool('two_step').invoke(
      {},
      ctx({ resume: { inputResponses: { name: ACCEPT_GRACE }, state: stored } }),
    )) as InputRequiredOutcome;
    expect(second.resultType).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['color']);
    const done = await tool('two_step').invoke(
      {},
      ctx({ resume: { inputResponses: { color: ACCEPT_GRACE }, state: second.state } }),
    );
    expect(textOf(done)).toBe('Grace likes red');
  });

  it('a resumed call may be finished by a resolver', async () => {
    const { tool } = await connected('modern');
    const first = (await tool('two_step').invoke({}, ctx())) as InputRequiredOutcome;
    const resolver = recordingResolver();
    const done = await tool('two_step').invoke(
      {},
      ctx({ resolver, resume: { inputResponses: { name: ACCEPT_GRACE }, state: first.state } }),
    );
    expect(textOf(done)).toBe('Grace likes teal');
    expect(resolver.asked).toEqual(['elicitation/create two_step']);
  });

  it('every input capability is declared, so the round comes back to the host', async () => {
    const { tool } = await connected('modern');
    expect(await tool('greet').invoke({}, ctx())).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user: { method: 'elicitation/create' } },
    });
  });
});

describe('without a resolver (legacy)', () => {
  it("declines the server's requests; one that insists ends with its own bound", async () => {
    const { tool } = await connected('legacy');
    // `greet` asks again after each decline, until twofold's server gives up.
    await expect(tool('greet').invoke({}, ctx())).rejects.toThrow('asked for input more than 8');
  });
});

describe('a tool that asks forever', () => {
  it('modern: ends with InputRoundsExceededError after the bounded rounds', async () => {
    const resolver = recordingResolver();
    // A server that keeps no round count: twofold's own bound would end it first (below).
    const { tool } = await connected('modern', { resolver }, forgetRequestState);
    const error = await tool('forever')
      .invoke({}, ctx())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRoundsExceededError);
    expect(error).toMatchObject({ toolName: 'forever', rounds: MAX_INPUT_ROUNDS });
    expect(resolver.asked).toHaveLength(MAX_INPUT_ROUNDS);
  });

  it.each(['modern', 'legacy'] as const)(
    '%s: a twofold server ends it after its own bound',
    async (era) => {
      const resolver = recordingResolver();
      const { tool } = await connected(era, { resolver });
      await expect(tool('forever').invoke({}, ctx())).rejects.toThrow(
        'asked for input more than 8',
      );
      expect(resolver.asked).toHaveLength(8);
    },
  );
});

describe('legacy over HTTP', () => {
  it('server-to-client requests reach the resolver through the client handlers', async () => {
    const resolver = recordingResolver();
    const { registry, provider } = newProvider({ resolver });
    const client = await provider.connect('asking', await httpTarget(askingServer()), {
      client: { era: 'legacy' },
    });
    expect(client.era).toBe('legacy');
    const greet = registry.get('greet');
    expect(textOf(await greet?.invoke({}, ctx()))).toBe('Hello, Ada!');
    expect(resolver.asked).toEqual(['elicitation/create greet']);
  });
});
