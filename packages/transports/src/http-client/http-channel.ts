/**
 * What both HTTP client transports share: the undici dispatcher (a pooled keep-alive `Agent`
 * owned by the transport unless one is passed in), the caller's extra headers, and the
 * background tasks (stream readers) that must finish before the transport reports closed.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import type { Dispatcher, Response } from 'undici';
import { type HttpAuthorizer, type HttpAuthRequest, MAX_AUTHORIZATION_RETRIES } from './authorizer';
import { discardBody } from './http-response';
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
    private readonly auth?: { authorizer: HttpAuthorizer; endpoint: URL },
  ) {
    this.ownsDispatcher = dispatcher === undefined;
    this.dispatcher = dispatcher;
  }

  /**
   * Sends a request within `scope`; fetch failures surface through `scope.explain`. With an
   * authorizer, a 401/403 it answers is sent again with fresh headers; the idle timer does not
   * run while it works (a login can take a person minutes; the authorizer bounds its own waits).
   */
  async request(url: URL, request: ChannelRequest, scope: RequestScope): Promise<Response> {
    const auth = this.auth;
    if (auth === undefined) return this.send(url, request, scope, undefined);
    const seen: HttpAuthRequest = { endpoint: auth.endpoint, url, method: request.method };
    for (let retries = 0; ; retries++) {
      const response = await this.send(url, request, scope, await auth.authorizer.headers(seen));
      const challenged = response.status === 401 || response.status === 403;
      if (!challenged) {
        auth.authorizer.observe?.(seen, response);
        return response;
      }
      if (retries === MAX_AUTHORIZATION_RETRIES) return response;
      scope.pause();
      const retry = await auth.authorizer.challenge(seen, response);
      scope.touch();
      if (!retry) return response;
      await discardBody(response);
    }
  }

  private async send(
    url: URL,
    request: ChannelRequest,
    scope: RequestScope,
    authHeaders: Readonly<Record<string, string>> | undefined,
  ): Promise<Response> {
    const { Agent, fetch, Headers } = await loadUndici();
    this.dispatcher ??= new Agent();
    // Headers merge case-insensitively, so a caller's `mcp-method` cannot sneak in beside ours.
    const headers = new Headers(await this.callerHeaders(scope));
    for (const [name, value] of Object.entries(authHeaders ?? {})) headers.set(name, value);
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
