/**
 * A stdio server that dies while a `tools/call` is pending, in both eras: the call rejects with
 * `PROCESS_EXITED` (exit code and stderr in its details), nothing stays pending, the process is
 * gone, and the client reports itself closed and can still be closed.
 */
import { fileURLToPath } from 'node:url';
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { StdioClientTransport } from '@twofold/transports/node';
import { describe, expect, it } from 'vitest';
import type { ServerTarget } from '../../src/types';
import {
  connectClient,
  ERAS,
  eventually,
  onCleanup,
  rejectionOf,
  useClientCleanups,
} from '../support/client-harness';

useClientCleanups();

const FIXTURE = fileURLToPath(new URL('../fixtures/client/dies-mid-call.mjs', import.meta.url));

/** A stdio target for the fixture that keeps the transports it opens. */
function dyingServer(): { target: ServerTarget; opened: StdioClientTransport[] } {
  const opened: StdioClientTransport[] = [];
  const target: ServerTarget = {
    kind: 'stream',
    key: 'stdio:dies-mid-call',
    open: () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [FIXTURE],
        stderr: () => undefined,
      });
      opened.push(transport);
      onCleanup(() => transport.close());
      return transport;
    },
  };
  return { target, opened };
}

/** Whether a process with `pid` still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function expectLocal(error: Error, code: LocalErrorCode): LocalError {
  expect(error).toBeInstanceOf(LocalError);
  expect((error as LocalError).code).toBe(code);
  return error as LocalError;
}

describe.each(ERAS)('McpClient and a stdio server that dies mid-call (%s)', (era) => {
  it('rejects the pending call with PROCESS_EXITED and leaves nothing behind', async () => {
    const { target, opened } = dyingServer();
    const { client } = await connectClient(target, { era });
    expect(client.era).toBe(era);
    expect(opened).toHaveLength(1);
    const pid = opened[0]?.pid as number;
    expect(pid).toBeTypeOf('number');
    expect(alive(pid)).toBe(true);
    await client.ping();
    const closeCauses: (Error | undefined)[] = [];
    client.onClose((cause) => closeCauses.push(cause));

    const stream = client.listen({ toolsListChanged: true });
    expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
    const error = expectLocal(
      await rejectionOf(client.callTool('anything', {}, { timeoutMs: 10_000 })),
      LocalErrorCode.ProcessExited,
    );
    expect(error.message).toMatch(/tools\/call|exited/);
    expect(error.details).toMatchObject({ exitCode: 7 });
    expect(String(error.details?.stderrTail)).toContain('exiting during tools/call');

    expect(alive(pid)).toBe(false);
    await eventually(() => client.closed);
    // Later calls fail at once, naming the end of the connection.
    const later = expectLocal(
      await rejectionOf(client.listTools()),
      LocalErrorCode.ConnectionClosed,
    );
    expect(later.cause).toBeInstanceOf(Error);
    // onClose fired once with the same cause; a listener added now is told at once.
    expect(closeCauses).toEqual([later.cause]);
    const lateCauses: (Error | undefined)[] = [];
    client.onClose((cause) => lateCauses.push(cause));
    expect(lateCauses).toEqual([later.cause]);
    // An open listen stream ends with the connection, without a final result.
    expectLocal(
      await rejectionOf(stream[Symbol.asyncIterator]().next()),
      LocalErrorCode.ConnectionClosed,
    );
    await client.close();
    expect(client.closed).toBe(true);
  });

  it('fails every call pending at the exit, not only the one that caused it', async () => {
    const { target } = dyingServer();
    const { client } = await connectClient(target, { era });
    const first = client.callTool('one');
    const second = client.readResource('test://pending');
    const [a, b] = await Promise.all([rejectionOf(first), rejectionOf(second)]);
    expectLocal(a, LocalErrorCode.ProcessExited);
    expectLocal(b, LocalErrorCode.ProcessExited);
    await client.close();
  });
});
