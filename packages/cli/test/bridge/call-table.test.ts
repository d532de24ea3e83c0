/**
 * The attribution rules of the call table, on real bridged calls whose upstream requests the
 * test settles itself: a legacy upstream's input request goes to the oldest call in flight
 * whose downstream client can answer it (one not already waiting for an answer first), and
 * parks that call until the retry answers; a log message goes to a call only when it is the
 * only one in flight; a downstream cancel, also of a parked legacy round, cancels upstream.
 */
import type { ClientCapabilities } from '@twofold/protocol/experimental';
import { InputRequired, type RequestContext } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import type { UpstreamControls } from '../../src/bridge/bridged-call';
import { CallTable } from '../../src/bridge/call-table';

/** A downstream request's context, recording what reaches it. */
function downstreamRound(
  clientCapabilities: ClientCapabilities,
  extra: Partial<RequestContext> = {},
): RequestContext & { logs: unknown[]; cancel(): void } {
  const controller = new AbortController();
  const logs: unknown[] = [];
  return {
    era: 'modern',
    protocolVersion: '2026-07-28',
    requestId: 1,
    clientCapabilities,
    signal: controller.signal,
    progress: async () => undefined,
    log: async (_level, data) => void logs.push(data),
    inputResponse: () => undefined,
    logs,
    cancel: () => controller.abort(),
    ...extra,
  };
}

/** An upstream request the test resolves, with the controls the call gave it. */
function upstreamRequest() {
  let resolve!: (result: Record<string, unknown>) => void;
  let controls!: UpstreamControls;
  const start = (given: UpstreamControls) => {
    controls = given;
    return new Promise<Record<string, unknown>>((done) => {
      resolve = done;
    });
  };
  return {
    start,
    resolve: (result: Record<string, unknown>) => resolve(result),
    controls: () => controls,
  };
}

const ELICIT = { method: 'elicitation/create' as const, params: { message: 'Name?' } };
const never = new AbortController().signal;

describe('CallTable', () => {
  it('gives an input request to the oldest call whose client can answer, and resumes it', async () => {
    const table = new CallTable(60_000);
    const plain = downstreamRound({});
    const asking = downstreamRound({ elicitation: {} });
    const first = upstreamRequest();
    const second = upstreamRequest();
    const plainCall = table.start(plain, first.start);
    const askingCall = table.start(asking, second.start);
    const plainRound = plainCall.runRound(plain);
    const askingRound = askingCall.runRound(asking);

    const answered = table.ask(ELICIT, never);
    const parked = await askingRound;
    expect(parked).toBeInstanceOf(InputRequired);
    expect(parked).toMatchObject({
      inputRequests: { 'elicitation-1': ELICIT },
      state: { call: askingCall.id },
    });
    expect(table.find(askingCall.id)).toBe(askingCall);

    // The retry carries the answer upstream and waits for the call's outcome.
    const retry = downstreamRound(
      { elicitation: {} },
      { inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } },
    );
    const resumed = askingCall.runRound(retry);
    expect(await answered).toEqual({ action: 'accept', content: { name: 'Ada' } });
    second.resolve({ content: [] });
    expect(await resumed).toEqual({ content: [] });
    expect(table.find(askingCall.id)).toBeUndefined();

    first.resolve({ content: [{ type: 'text', text: 'plain' }] });
    expect(await plainRound).toMatchObject({ content: [{ text: 'plain' }] });
  });

  it('prefers a call that is not already waiting for an answer', async () => {
    const table = new CallTable(60_000);
    const older = downstreamRound({ elicitation: {} });
    const newer = downstreamRound({ elicitation: {} });
    const olderCall = table.start(older, upstreamRequest().start);
    const newerCall = table.start(newer, upstreamRequest().start);
    const newerRound = newerCall.runRound(newer);
    const firstQuestion = table.ask(ELICIT, never);
    expect(await olderCall.runRound(older)).toMatchObject({ state: { call: olderCall.id } });
    // The older call waits on its question: the next one is the newer call's.
    const secondQuestion = table.ask(ELICIT, never);
    expect(await newerRound).toMatchObject({ state: { call: newerCall.id } });
    // Closing the bridge tells the upstream no answer will come.
    table.cancelAll('done');
    for (const question of [firstQuestion, secondQuestion]) {
      await expect(question).rejects.toMatchObject({ code: -32603 });
    }
  });

  it('cancels upstream when a parked round of a legacy session is cancelled', async () => {
    const table = new CallTable(60_000);
    // A legacy session keeps one request (and one signal) across the rounds it runs.
    const round = downstreamRound({ elicitation: {} });
    const upstream = upstreamRequest();
    const call = table.start(round, upstream.start);
    const running = call.runRound(round);
    const asked = table.ask(ELICIT, never);
    expect(await running).toBeInstanceOf(InputRequired);
    round.cancel();
    expect(upstream.controls().signal.aborted).toBe(true);
    await expect(asked).rejects.toMatchObject({ code: -32603 });
    expect(table.find(call.id)).toBeUndefined();
  });

  it('refuses an input request no call in flight can answer', async () => {
    const table = new CallTable(60_000);
    const round = downstreamRound({ elicitation: {} });
    const upstream = upstreamRequest();
    const call = table.start(round, upstream.start);
    const running = call.runRound(round);
    await expect(
      table.ask({ method: 'sampling/createMessage', params: { messages: [] } }, never),
    ).rejects.toMatchObject({ code: -32601 });
    await expect(
      table.ask({ method: 'elicitation/create', params: { mode: 'url', url: 'https://x' } }, never),
    ).rejects.toMatchObject({ code: -32601 });
    upstream.resolve({ content: [] });
    await running;
  });

  it('forwards a log message only while exactly one call is in flight', async () => {
    const table = new CallTable(60_000);
    const one = downstreamRound({});
    const two = downstreamRound({});
    const first = upstreamRequest();
    const second = upstreamRequest();
    const oneRound = table.start(one, first.start).runRound(one);
    table.log({ level: 'info', data: 'alone' });
    const twoRound = table.start(two, second.start).runRound(two);
    table.log({ level: 'info', data: 'crowded' });
    expect(one.logs).toEqual(['alone']);
    expect(two.logs).toEqual([]);
    first.resolve({});
    second.resolve({});
    await Promise.all([oneRound, twoRound]);
  });

  it('cancels the upstream request when the downstream round is cancelled', async () => {
    const table = new CallTable(60_000);
    const round = downstreamRound({});
    const upstream = upstreamRequest();
    const call = table.start(round, upstream.start);
    const running = call.runRound(round);
    round.cancel();
    await expect(running).rejects.toMatchObject({ code: -32603 });
    expect(upstream.controls().signal.aborted).toBe(true);
    expect(table.find(call.id)).toBeUndefined();
  });
});
