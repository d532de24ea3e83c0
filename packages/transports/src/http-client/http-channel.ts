/**
 * What both HTTP client transports share: the fetch they send with (the runtime's own unless
 * one is passed in), the caller's extra headers, and the background tasks (stream readers)
 * that must finish before the transport reports closed.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { type HttpAuthorizer, type HttpAuthRequest, MAX_AUTHORIZATION_RETRIES } from './authorizer';
import { discardBody } from './http-response';
import type { HttpFetch, HttpFetchInit, HttpFetchResponse, HttpHeadersOption } from './options';
import type { RequestScope } from './request-scope';

/** One HTTP request of a transport. */
export interface ChannelRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Headers set by the transport; they override the caller's extra headers. */
  headers: Record<string, string>;
  body?: string;
}

/** How a transport fetches, and what it releases after shutting down. */
export interface ChannelFetch {
  fetch?: HttpFetch | undefined;
  closeFetch?: (() => Promise<void>) | undefined;
}

/** Looked up per request, so a fetch patched in after construction (by a test, a polyfill) counts. */
const globalFetch: HttpFetch = (url, init) => globalThis.fetch(url, init);

/** The transport's HTTP connection pool and background work. */
export class HttpChannel {
  private readonly fetch: HttpFetch;
  private readonly tasks = new Set<Promise<void>>();
  private readonly scopes = new Set<RequestScope>();

  constructor(
    private readonly fetching: ChannelFetch,
    private readonly extraHeaders: HttpHeadersOption | undefined,
    private readonly auth?: { authorizer: HttpAuthorizer; endpoint: URL },
  ) {
    this.fetch = fetching.fetch ?? globalFetch;
  }

  /**
   * Sends a request within `scope`; fetch failures surface through `scope.explain`. With an
   * authorizer, a 401/403 it answers is sent again with fresh headers; the idle timer does not
   * run while it works (a login can take a person minutes; the authorizer bounds its own waits).
   */
  async request(
    url: URL,
    request: ChannelRequest,
    scope: RequestScope,
  ): Promise<HttpFetchResponse> {
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
  ): Promise<HttpFetchResponse> {
    // Headers merge case-insensitively, so a caller's `mcp-method` cannot sneak in beside ours.
    const headers: Record<string, string> = {};
    const merge = (from: Readonly<Record<string, string>>) => {
      for (const [name, value] of Object.entries(from)) headers[name.toLowerCase()] = value;
    };
    merge(await this.callerHeaders(scope));
    merge(authHeaders ?? {});
    merge(request.headers);
    const init: HttpFetchInit = { method: request.method, headers, signal: scope.signal };
    if (request.body !== undefined) init.body = request.body;
    return this.fetch(url, init);
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

  /** Waits for the background work, then releases what was made for this transport's fetch. */
  async shutdown(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all(this.tasks);
    await this.fetching.closeFetch?.();
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
