/**
 * The CLI's `AuthorizationHandler`: a loopback redirect listener, the authorization URL printed
 * on stderr (always) and opened in a browser (when there is one), and the wait for the browser
 * to come back, bounded by the flow's timeout and ended by Ctrl-C. Loaded only for a login.
 */
import type { AuthorizationHandler, AuthorizationRequest } from '@twofold/client/experimental';
import type { CliIo } from '../cli/io';
import type { Paint } from '../cli/output';
import { openBrowser } from './browser';
import { type LoopbackRedirect, startLoopbackRedirect } from './loopback';

/** What the handler needs of the command. */
export interface BrowserHandlerContext {
  io: CliIo;
  paintErr: Paint;
  note(text: string): void;
  /** `--verbose` lines (credentials masked by the caller's rules). */
  trace?: (line: string) => void;
}

/** Logs a person in through their browser; `close()` stops the listener. */
export class BrowserAuthorization implements AuthorizationHandler {
  #listener: Promise<LoopbackRedirect> | undefined;

  constructor(private readonly context: BrowserHandlerContext) {}

  async redirectUri(): Promise<string> {
    return (await this.#start()).redirectUri;
  }

  async authorize(request: AuthorizationRequest): Promise<URL> {
    const listener = await this.#start();
    const { io, note, paintErr } = this.context;
    note(`twofold: ${request.resource} asks you to log in at ${request.issuer}.`);
    note('Open this URL in a browser to authorize twofold (Ctrl-C gives up):');
    note(`  ${paintErr.bold(request.url.href)}`);
    if (openBrowser(request.url.href, io.env, (line) => note(paintErr.yellow(line)))) {
      note(paintErr.dim('(a browser was started; waiting for it to come back)'));
    }
    const landed = await listener.next(either(request.signal, io.interrupt));
    this.context.trace?.(
      `# oauth: the browser came back to ${landed.origin}${landed.pathname} with ${
        [...landed.searchParams.keys()].join(', ') || 'nothing'
      }`,
    );
    return landed;
  }

  /** Stops listening (after the flow, whatever its outcome). */
  async close(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    await (await listener?.catch(() => undefined))?.close();
  }

  #start(): Promise<LoopbackRedirect> {
    this.#listener ??= startLoopbackRedirect();
    return this.#listener;
  }
}

/** A signal aborted when either is, with that one's reason. */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (a.aborted) return a;
  if (b.aborted) return b;
  const controller = new AbortController();
  const onA = () => controller.abort(a.reason);
  const onB = () => controller.abort(b.reason);
  a.addEventListener('abort', onA, { once: true });
  b.addEventListener('abort', onB, { once: true });
  controller.signal.addEventListener('abort', () => {
    a.removeEventListener('abort', onA);
    b.removeEventListener('abort', onB);
  });
  return controller.signal;
}
