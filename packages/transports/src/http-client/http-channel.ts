/**
 * What both HTTP client transports share: the undici dispatcher (a pooled keep-alive `Agent`
 * owned by the transport unless one is passed in), the caller's extra headers, and the
 * background tasks (stream readers) that must finish before the transport reports closed.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import type { Dispatcher, Response } from 'undici';
import type { HttpHeadersOption } from './options';
import type { RequestScope } from './request-scope';

/** One HTTP request of a transport. */
export interface ChannelRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Headers set by the transport; they override the caller's extra headers. */
  headers: Record<string, string>;
  body?: string;
}

/** undici, loaded on the first request: a stdio-only program never pays for importing it. */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => {
  undici ??= import('undici');
  return undici;
};

/** The transport's HTTP connection pool and background work. */
export class HttpChannel {
  private dispatcher: Dispatcher | undefined;
  private readonly ownsDispatcher: boolean;
  private readonly tasks = new Set<Promise<void>>();
  private readonly scopes = new Set<RequestScope>();

  constructor(
    dispatcher: Dispatcher | undefined,
    private readonly extraHeaders: HttpHeadersOption | undefined,
  ) {
    this.ownsDispatcher = dispatcher === undefined;
    this.dispatcher = dispatcher;
  }

  /** Sends a request within `scope`; fetch failures surface through `scope.explain`. */
  async request(url: URL, request: ChannelRequest, scope: RequestScope): Promise<Response> {
    const { Agent, fetch, Headers } = await loadUndici();
    this.dispatcher ??= new Agent();
    // Headers merge case-insensitively, so a caller's `mcp-method` cannot sneak in beside ours.
    const headers = new Headers(await this.callerHeaders(scope));
    for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
    return fetch(url, {
      method: request.method,
      headers,
      body: request.body,
      signal: scope.signal,
      dispatcher: this.dispatcher,
    });
  }

  /** Registers a live exchange so that `abortAll` reaches it; returns it. */
  enter(scope: RequestScope): RequestScope {
    this.scopes.add(scope);
    return scope;
  }

  /** Ends an exchange: timer released, no longer aborted by `abortAll`. */
  leave(scope: RequestScope): void {
    scope.dispose();
    this.scopes.delete(scope);
  }

  /** Runs background work that `shutdown` waits for. */
  track(task: Promise<void>): void {
    // Tasks report their own failures; only a throwing user callback can get here.
    const settled = task.catch(() => undefined).finally(() => this.tasks.delete(settled));
    this.tasks.add(settled);
  }

  /** Aborts every live exchange with `reason`. */
  abortAll(reason: LocalError): void {
    for (const scope of this.scopes) scope.abort(reason);
  }

  /** Waits for the background work, then closes the dispatcher if the transport owns it. */
  async shutdown(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all(this.tasks);
    if (this.ownsDispatcher) await this.dispatcher?.close();
  }

  private async callerHeaders(scope: RequestScope): Promise<Readonly<Record<string, string>>> {
    const option = this.extraHeaders;
    if (typeof option !== 'function') return option ?? {};
    try {
      return await option();
    } catch (cause) {
      throw new LocalError(
        LocalErrorCode.HttpError,
        `${scope.label.what}: the headers callback failed`,
        { cause, details: scope.details() },
      );
    }
  }
}
