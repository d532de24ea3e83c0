/**
 * What a CLI run touches outside itself: output streams, input, environment, working
 * directory. Injected, so tests (and hosts embedding the CLI) run it without a process.
 */
import type { Readable, Writable } from 'node:stream';

/**
 * A stream the CLI writes to (a real stream: prompts are written to stderr by readline).
 *
 * @experimental
 */
export interface OutputStream extends Writable {
  /** Whether it is a terminal (tables, colour, progress bars). */
  readonly isTTY?: boolean | undefined;
  /** Terminal width, when it is one. */
  readonly columns?: number | undefined;
}

/**
 * The world of one CLI run.
 *
 * @experimental
 */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Standard input (answers typed on a TTY, the reverse bridge's messages). */
  stdin: Readable & { isTTY?: boolean | undefined };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Aborted on Ctrl-C (SIGINT) or SIGTERM: long-running commands end, exit code 130. */
  interrupt: AbortSignal;
}

/**
 * The io of the real process, with SIGINT/SIGTERM turned into `interrupt`.
 *
 * @experimental
 */
export function processIo(): CliIo {
  const interrupt = new AbortController();
  const stop = () => interrupt.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    interrupt: interrupt.signal,
  };
}
