/**
 * What the core reads of a request, whatever the runtime: a web `Request` seen through
 * {@link WebIncoming}, or node:http's request seen directly (no `Request`, body stream or
 * `AbortController` made unless something asks for one).
 */
import { concatBytes } from '../bytes';
import { unrefTimer } from './sse-stream';

/** The bounds of one body read. */
export interface BodyLimits {
  maxBytes: number;
  /** From the start of the read to its end; 0 turns the bound off. */
  timeoutMs: number;
}

/** Why a body read stopped short: over `maxBytes`, past `timeoutMs`, or the stream failed. */
export type BodyShortfall = 'too-large' | 'too-slow' | 'cut-off';

/**
 * A request as the Streamable HTTP core reads it.
 *
 * @experimental
 */
export interface IncomingRequest {
  /** The HTTP method, upper-case. */
  readonly method: string;
  /** A header's value (several joined with `, `), by name in any case. */
  header(name: string): string | undefined;
  /** Every header, by lower-case name. */
  headerRecord(): Record<string, string>;
  /** The `Host` the client addressed (the URL's where a runtime leaves the header out). */
  host(): string;
  /** Whether the body was read already, by the core or before it. */
  readonly bodyUsed: boolean;
  /**
   * Reads the whole body under `limits`; a read that stops short drops the rest unread and
   * marks the connection as not reusable.
   */
  readBody(limits: BodyLimits): Promise<Uint8Array | BodyShortfall>;
  /** Drops a body nobody read; true when there was one (the connection is then not reused). */
  discardBody(): boolean;
  /**
   * Calls `listener` once if the client goes away before the answer is complete; returns
   * what stops listening.
   */
  onDisconnect(listener: () => void): () => void;
  /** The request as a web `Request` for hooks that take one; the body may be left out (it is the core's). */
  toRequest(): Request;
}

/**
 * Reads a web body stream under `limits`, cancelling it at the first byte over the limit or
 * when the time runs out.
 */
async function readStream(
  body: ReadableStream<Uint8Array>,
  limits: BodyLimits,
): Promise<Uint8Array | BodyShortfall> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'too-slow'>((resolve) => {
    if (limits.timeoutMs > 0) timer = unrefTimer(setTimeout(resolve, limits.timeoutMs, 'too-slow'));
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      // A body that fails to arrive (the client or the adapter dropped the connection).
      const next = await Promise.race([reader.read(), expired]).catch(() => 'cut-off' as const);
      if (next === 'cut-off') return next;
      if (next === 'too-slow') {
        await reader.cancel().catch(() => undefined);
        return next;
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > limits.maxBytes) {
        await reader.cancel().catch(() => undefined);
        return 'too-large';
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return concatBytes(chunks, total);
}

/**
 * A web `Request` as an {@link IncomingRequest}: what every runtime but node:http hands the
 * core (Bun, Deno, Workers, framework adapters).
 *
 * @experimental
 */
export class WebIncoming implements IncomingRequest {
  constructor(readonly request: Request) {}

  get method(): string {
    return this.request.method;
  }

  get bodyUsed(): boolean {
    return this.request.bodyUsed;
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  headerRecord(): Record<string, string> {
    const record: Record<string, string> = {};
    this.request.headers.forEach((value, name) => {
      record[name] = value;
    });
    return record;
  }

  host(): string {
    return this.request.headers.get('host') ?? new URL(this.request.url).host;
  }

  readBody(limits: BodyLimits): Promise<Uint8Array | BodyShortfall> {
    const body = this.request.body;
    return body === null ? Promise.resolve(new Uint8Array(0)) : readStream(body, limits);
  }

  discardBody(): boolean {
    const body = this.request.body;
    if (body === null || this.request.bodyUsed) return false;
    body.cancel().catch(() => undefined);
    return true;
  }

  onDisconnect(listener: () => void): () => void {
    const signal = this.request.signal;
    if (signal.aborted) {
      queueMicrotask(listener);
      return () => undefined;
    }
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }

  toRequest(): Request {
    return this.request;
  }
}
