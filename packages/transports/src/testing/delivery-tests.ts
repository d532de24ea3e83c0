/** Contract tests about what arrives: order, correlation, size and text fidelity. */
import { isJsonRpcResponse } from '@twofold/protocol/experimental';
import { expect } from 'vitest';
import type { Call, ContractHarness } from './harness';
import { CONTRACT_METHODS } from './responder';
import { expectSameText, largePayload, utf8Samples } from './samples';

/** One contract test's body; the runner opens, starts and tears down the pair around it. */
export type ContractTestBody = (harness: ContractHarness) => Promise<void>;

const ORDERED_MESSAGES = 200;
const CONCURRENT_REQUESTS = 100;
const RELATED_NOTIFICATIONS = 50;
const MIB = 1024 * 1024;
const LARGE_SIZES = [MIB, 8 * MIB];

const range = (count: number) => Array.from({ length: count }, (_, i) => i);

/** Sends notes and echo requests carrying `seq`, then checks the server saw them in order. */
async function expectOrderedDelivery(h: ContractHarness, waitForEachSend: boolean): Promise<void> {
  const calls: Array<{ call: Call; seq: number }> = [];
  const pipelined: Promise<void>[] = [];
  for (let seq = 0; seq < ORDERED_MESSAGES; seq++) {
    let sent: Promise<void>;
    if (seq % 3 === 2) {
      const call = h.call(CONTRACT_METHODS.echo, { seq });
      calls.push({ call, seq });
      sent = call.sent;
    } else {
      sent = h.notify(CONTRACT_METHODS.note, { seq });
    }
    if (waitForEachSend) await h.waitFor(sent, `send() of message ${seq}`);
    else {
      sent.catch(() => {}); // awaited below, in order; a rejection meanwhile is not unhandled
      pipelined.push(sent);
    }
  }
  // One bound per send, not one for the whole batch: on a busy machine two hundred HTTP
  // requests together can outlast the bound of one event while every send makes progress.
  for (const [seq, sent] of pipelined.entries()) {
    await h.waitFor(sent, `send() of pipelined message ${seq}`);
  }
  for (const { call, seq } of calls) {
    const result = await h.resultOf(call, `echo request ${JSON.stringify(call.id)}`);
    expect(result.echo, `the echo of message ${seq}`).toEqual({ seq });
  }
  const { seqs } = await h.report();
  expect(seqs, 'the order in which the server received the messages').toEqual(
    range(ORDERED_MESSAGES),
  );
}

const tokenFor = (id: unknown) => `token:${typeof id}:${String(id)}`;

export const deliveryTests = {
  'delivers messages in send order': (h) => expectOrderedDelivery(h, true),

  'delivers pipelined sends in order': (h) => expectOrderedDelivery(h, false),

  'answers concurrent requests with string and numeric ids': async (h) => {
    // Numeric 7 and string "7" are different JSON-RPC ids and are in flight at the same time.
    const ids = range(CONCURRENT_REQUESTS / 2).flatMap((i) => [i, String(i)]);
    const calls = ids.map((id) =>
      h.call(
        CONTRACT_METHODS.gather,
        { group: 'concurrent', size: CONCURRENT_REQUESTS, token: tokenFor(id) },
        id,
      ),
    );
    await h.waitFor(Promise.all(calls.map((call) => call.sent)), 'the concurrent sends');
    // The responder holds every request until the last arrives, then answers in reverse.
    for (const call of calls) {
      const result = await h.resultOf(call, `request ${JSON.stringify(call.id)}`);
      expect(result.token, `the response to ${JSON.stringify(call.id)}`).toBe(tokenFor(call.id));
    }
  },

  'round-trips large messages': async (h) => {
    for (const size of LARGE_SIZES) {
      const payload = largePayload(size);
      // One wait bound per MiB: copying and parsing 8 MiB is eight times the work of one.
      const result = await h.roundTrip(CONTRACT_METHODS.echo, { payload }, size / MIB);
      const echoed = (result.echo as { payload?: unknown } | undefined)?.payload;
      expectSameText(echoed, payload, `a ${size}-character payload`);
    }
  },

  'round-trips UTF-8 text exactly': async (h) => {
    const result = await h.roundTrip(CONTRACT_METHODS.echo, { samples: utf8Samples });
    const echoed = (result.echo as { samples?: Record<string, unknown> } | undefined)?.samples;
    for (const [name, text] of Object.entries(utf8Samples)) {
      expectSameText(echoed?.[name], text, `the ${name} sample`);
    }
  },

  'delivers request-related notifications before the response': async (h) => {
    const call = h.call(CONTRACT_METHODS.stream, { count: RELATED_NOTIFICATIONS });
    await h.waitFor(call.sent, 'send() of the stream request');
    expect(await h.resultOf(call, 'the stream request')).toEqual({ count: RELATED_NOTIFICATIONS });
    const aboutCall = h.inbound.flatMap((message) => {
      if (isJsonRpcResponse(message)) return message.id === call.id ? ['response'] : [];
      return message.method === CONTRACT_METHODS.progress && message.params?.request === call.id
        ? [message.params.seq]
        : [];
    });
    expect(aboutCall, 'related notifications, then the response').toEqual([
      ...range(RELATED_NOTIFICATIONS),
      'response',
    ]);
  },
} satisfies Record<string, ContractTestBody>;
