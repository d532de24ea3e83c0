/**
 * The client's limits against a hostile stdio server, in both eras: a call whose progress
 * resets its timeout still ends at `maxTotalTimeoutMs` (and is cancelled on the wire), and a
 * response over the message cap fails its request at once with `MESSAGE_TOO_LARGE` naming the
 * limit, and an invalid response fails its request with `INVALID_MESSAGE`, instead of waiting
 * out the timeout. Nothing here waits on the clock to pass: the request timeouts are far beyond
 * what the tests take, so only the behaviour under test can end a call.
 */
import { fileURLToPath } from 'node:url';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { stdioServer } from '../../src/targets/stdio';
import { connectClient, ERAS, rejectionOf, useClientCleanups } from '../support/client-harness';

useClientCleanups();

const FIXTURE = fileURLToPath(new URL('../fixtures/client/hostile.mjs', import.meta.url));
const LIMIT = 4096;
// Far beyond any test here: a call that ends must have ended for the reason under test.
const PATIENCE_MS = 25_000;

function hostile() {
  return stdioServer({
    command: process.execPath,
    args: [FIXTURE],
    maxMessageBytes: LIMIT,
    stderr: () => undefined,
  });
}

async function connect(era: (typeof ERAS)[number], extra = {}) {
  return connectClient(hostile(), { era, requestTimeoutMs: PATIENCE_MS, ...extra });
}

function expectLocal(error: Error, code: LocalErrorCode): LocalError {
  expect(error).toBeInstanceOf(LocalError);
  expect((error as LocalError).code).toBe(code);
  return error as LocalError;
}

describe.each(ERAS)('limits over stdio (%s)', (era) => {
  it('a server reporting progress forever is stopped by maxTotalTimeoutMs and cancelled', async () => {
    const { client } = await connect(era, { maxTotalTimeoutMs: 300 });
    const error = await rejectionOf(
      client.callTool(
        'progress-forever',
        {},
        {
          resetTimeoutOnProgress: true,
          onProgress: () => undefined,
        },
      ),
    );
    // The total cap ended it: the request timeout is far away, and progress kept resetting it.
    const timeout = expectLocal(error, LocalErrorCode.RequestTimeout);
    expect(timeout.details).toMatchObject({ method: 'tools/call', maxTotalTimeoutMs: 300 });
    expect(timeout.message).toContain('maximum total time of 300 ms');
    // The cancellation reached the server, which stopped reporting.
    for (;;) {
      const { ids } = await client.request('fixture/cancelled');
      if ((ids as unknown[]).length > 0) break;
    }
  });

  it('a call may set its own maximum total time', async () => {
    const { client } = await connect(era);
    const error = await rejectionOf(
      client.callTool(
        'progress-forever',
        {},
        {
          resetTimeoutOnProgress: true,
          maxTotalTimeoutMs: 200,
          onProgress: () => undefined,
        },
      ),
    );
    expect(expectLocal(error, LocalErrorCode.RequestTimeout).details).toMatchObject({
      maxTotalTimeoutMs: 200,
    });
  });

  it.each(['result-first', 'id-first'])(
    'a response over the cap (%s) fails its call at once, naming the limit',
    async (order) => {
      const { client, warnings } = await connect(era);
      const error = await rejectionOf(client.callTool('big', { bytes: 10_000, order }));
      const tooLarge = expectLocal(error, LocalErrorCode.MessageTooLarge);
      expect(tooLarge.message).toContain(`limit of ${LIMIT} bytes`);
      expect(tooLarge.details).toMatchObject({ method: 'tools/call', limit: LIMIT });
      expect(warnings.map((w) => w.message).join('\n')).toContain(`larger than ${LIMIT} bytes`);
      // The connection goes on.
      expect((await client.callTool('small')).content).toEqual([{ type: 'text', text: 'small' }]);
    },
  );

  it('an unreadable id fails the one call pending, the only one it can be for', async () => {
    const { client } = await connect(era);
    const error = await rejectionOf(client.callTool('big', { bytes: 10_000, order: 'id-hidden' }));
    expectLocal(error, LocalErrorCode.MessageTooLarge);
    expect((await client.callTool('small')).content).toEqual([{ type: 'text', text: 'small' }]);
  });

  it('an unreadable id with several calls pending fails none of them', async () => {
    const { client, warnings } = await connect(era);
    const stop = new AbortController();
    const other = rejectionOf(
      client.callTool('progress-forever', {}, { signal: stop.signal, onProgress: () => undefined }),
    );
    // Both calls are pending when the oversized response arrives: which one it was for is
    // unknown, so each keeps its own timeout (here: the big one's, short on purpose).
    const big = await rejectionOf(
      client.callTool('big', { bytes: 10_000, order: 'id-hidden' }, { timeoutMs: 500 }),
    );
    expectLocal(big, LocalErrorCode.RequestTimeout);
    // Answers come in order: once a later call is answered, the oversized line has been read.
    expect((await client.callTool('small')).content).toEqual([{ type: 'text', text: 'small' }]);
    expect(warnings.some((w) => w.message.includes(`larger than ${LIMIT} bytes`))).toBe(true);
    stop.abort();
    expectLocal(await other, LocalErrorCode.RequestAborted);
  });

  it('an invalid response fails its call at once, saying what is wrong with it', async () => {
    const { client } = await connect(era);
    const error = await rejectionOf(client.callTool('invalid-response'));
    const invalid = expectLocal(error, LocalErrorCode.InvalidMessage);
    expect(invalid.message).toContain('result must be an object');
    expect(invalid.details).toMatchObject({ method: 'tools/call' });
    expect((await client.callTool('small')).content).toEqual([{ type: 'text', text: 'small' }]);
  });

  it('an oversized notification fails nothing: the call gets its answer', async () => {
    const { client, warnings } = await connect(era);
    const result = await client.callTool('big-log', { bytes: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'after the log' }]);
    expect(warnings.some((w) => w.message.includes(`larger than ${LIMIT} bytes`))).toBe(true);
  });
});
