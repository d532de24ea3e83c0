/**
 * A raw stdio channel: one server process of the doctor's own, newline-delimited JSON-RPC both
 * ways, every inbound message kept in order.
 *
 * The process is started with `StdioClientTransport` from `@twofold/transports/node` rather
 * than a bare `child_process.spawn`: it is the same spawn (no shell), but it also puts the
 * server in its own process group and kills the group on close. That matters for servers that
 * start helpers of their own (a `tsx` loader starts an esbuild service, `npx` starts the real
 * server): killing only the direct child would leave those running.
 */
import {
  createErrorResponse,
  createResultResponse,
  ErrorCode,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcResponse,
  LocalError,
  LocalErrorCode,
} from '@twofold/protocol/experimental';
import { StdioClientTransport } from '@twofold/transports/node';
import type { RawChannel, RawExchange } from './channel';
import { truncate } from './channel';

/** How the stdio server is started. */
export interface StdioChannelOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Bounds the process start. */
  timeoutMs: number;
  /**
   * How much longer than its step's timeout a request may wait while the process has not said
   * anything yet: the process is still starting, and start-up is not the step's time.
   */
  startupMs: number;
}

const MAX_NOISE = 20;

interface Waiter {
  id: unknown;
  from: number;
  resolve: (exchange: RawExchange) => void;
}

/** Starts the server process; the channel owns it until `close()`. */
export async function openStdioChannel(options: StdioChannelOptions): Promise<RawChannel> {
  const transport = new StdioClientTransport({
    command: options.command,
    ...(options.args ? { args: options.args } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    // The doctor's processes hold no state worth a graceful wait.
    closeTimeouts: { stdinEndMs: 500, sigtermMs: 1000, outputDrainMs: 500 },
  });
  const inbound: JsonRpcMessage[] = [];
  const waiters = new Set<Waiter>();
  let ended: string | undefined;
  let spoke = false;

  const settle = (waiter: Waiter, response?: JsonRpcResponse) => {
    waiters.delete(waiter);
    const others = inbound.slice(waiter.from).filter((message) => message !== response);
    waiter.resolve(
      response ? { response, others } : { others, failure: ended ?? 'no answer', closed: true },
    );
  };

  transport.onmessage = (message) => {
    spoke = true;
    inbound.push(message);
    if (isJsonRpcRequest(message)) {
      // A legacy server asking something (ping, roots): answer, so it is not left waiting.
      const answer =
        message.method === 'ping'
          ? createResultResponse(message.id, {})
          : createErrorResponse(message.id, {
              code: ErrorCode.MethodNotFound,
              message: `twofold doctor does not answer ${message.method}`,
            });
      transport.send(answer).catch(() => undefined);
      return;
    }
    if (!isJsonRpcResponse(message)) return;
    for (const waiter of waiters) {
      if (waiter.id === message.id) settle(waiter, message);
    }
  };
  const noise: string[] = [];
  transport.onerror = (error) => {
    if (error instanceof LocalError && error.code === LocalErrorCode.ProcessExited) return;
    // Anything else is inbound text that was not a JSON-RPC message: a finding, not a failure.
    if (noise.length < MAX_NOISE) noise.push(truncate(error.message, 200));
  };
  transport.onclose = () => {
    const exit = transport.exitInfo;
    ended ??= exit
      ? `the server process ended (${describeExit(exit.exitCode, exit.signal, exit.stderrTail)})`
      : 'the server process ended';
    for (const waiter of [...waiters]) settle(waiter);
  };

  let startTimer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    startTimer = setTimeout(
      () => reject(new Error(`the server did not start within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
  });
  try {
    await Promise.race([transport.start(), timeout]);
  } catch (error) {
    await transport.close();
    throw error;
  } finally {
    clearTimeout(startTimer);
  }

  return {
    transport: 'stdio',
    noise: () => [...noise],
    async send(message, sendOptions) {
      const from = inbound.length;
      if (ended) return { others: [], failure: ended, closed: true };
      if (!isJsonRpcRequest(message)) {
        await transport.send(message).catch(() => undefined);
        return { others: [] };
      }
      const starting = !spoke;
      const waitMs = sendOptions.timeoutMs + (starting ? options.startupMs : 0);
      return new Promise<RawExchange>((resolve) => {
        const waiter: Waiter = { id: message.id, from, resolve };
        const timer = setTimeout(() => {
          if (!waiters.has(waiter)) return;
          waiters.delete(waiter);
          resolve({
            others: inbound.slice(from),
            failure: starting
              ? `no answer within ${waitMs} ms of a process that had not spoken yet (${options.startupMs} ms allowed for its start-up)`
              : `no answer within ${waitMs} ms`,
          });
        }, waitMs);
        waiter.resolve = (exchange) => {
          clearTimeout(timer);
          resolve(exchange);
        };
        waiters.add(waiter);
        transport.send(message).catch((error: unknown) => {
          if (!waiters.has(waiter)) return;
          const reason = error instanceof Error ? error.message : String(error);
          ended ??= `could not write to the server: ${reason}`;
          settle(waiter);
        });
      });
    },
    async close() {
      await transport.close();
    },
  };
}

function describeExit(code: number | null, signal: string | null, stderrTail: string): string {
  const how = signal !== null ? `signal ${signal}` : `exit code ${code}`;
  const last = stderrTail.trimEnd().split('\n').pop() ?? '';
  return last === '' ? how : `${how}; stderr: ${truncate(last, 160)}`;
}
