/**
 * The legacy side of the endpoint: mints sessions on `initialize`, finds them by
 * `Mcp-Session-Id` for later POSTs, GET streams and DELETEs, and closes idle ones.
 */
import {
  type DecodedMessage,
  ErrorCode,
  isLegacyVersion,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  type RequestId,
} from '@twofold/protocol/experimental';
import { asError } from '../failures';
import { checkAccept } from '../guards';
import { errorResponse } from '../responses';
import { unrefTimer } from '../sse-stream';
import type { HttpGrant, LegacyHooks } from '../types';
import { HttpLegacySession } from './session';

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const DEFAULT_MAX_QUEUED_MESSAGES = 100;

/** What the legacy endpoint needs from the core's settings. */
export interface LegacyEndpointSettings {
  keepAliveIntervalMs: number;
  onerror?: ((error: Error) => void) | undefined;
}

interface SessionEntry {
  readonly session: HttpLegacySession;
  /** Who initialized the session (`HttpGrant.owner`); every later request must be theirs. */
  readonly owner: string | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Serves legacy Streamable HTTP traffic for the hooks of the server package. */
export class LegacyEndpoint {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly idleTimeoutMs: number;
  private readonly maxQueuedMessages: number;

  constructor(
    private readonly hooks: LegacyHooks,
    private readonly settings: LegacyEndpointSettings,
  ) {
    this.idleTimeoutMs = hooks.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.maxQueuedMessages = hooks.maxQueuedMessages ?? DEFAULT_MAX_QUEUED_MESSAGES;
  }

  /** Whether GET and DELETE mean anything here (not in stateless mode). */
  get hasSessions(): boolean {
    return this.hooks.stateless !== true;
  }

  /** `initialize`: a new session (one-shot when stateless) receives it. */
  async initialize(request: Request, decoded: DecodedMessage, grant: HttpGrant): Promise<Response> {
    const sessionId = this.hasSessions ? crypto.randomUUID() : undefined;
    const session = await this.openSession(sessionId, grant.owner);
    if (session instanceof Response) return session;
    return session.handlePost(request, decoded, { closeOnError: true, auth: grant.auth });
  }

  /** Any other legacy POST: routed to its session (a one-shot one when stateless). */
  async post(
    request: Request,
    decoded: DecodedMessage,
    sessionId: string | undefined,
    grant: HttpGrant,
  ): Promise<Response> {
    const id = decoded.kind === 'request' ? decoded.message.id : undefined;
    const version = request.headers.get(MCP_PROTOCOL_VERSION_HEADER);
    if (version !== null && !isLegacyVersion(version)) {
      return errorResponse(
        400,
        {
          code: ErrorCode.InvalidRequest,
          message: `Unsupported MCP-Protocol-Version ${JSON.stringify(version)}`,
        },
        { id },
      );
    }
    const options = { auth: grant.auth };
    if (!this.hasSessions) {
      const session = await this.openSession(undefined, undefined);
      return session instanceof Response ? session : session.handlePost(request, decoded, options);
    }
    const session = this.find(sessionId, grant, id);
    return session instanceof Response ? session : session.handlePost(request, decoded, options);
  }

  /** GET: the session's stream for unrelated messages, or a resumption with `Last-Event-ID`. */
  get(request: Request, grant: HttpGrant): Response {
    const refusal = checkAccept(request, ['text/event-stream']);
    if (refusal !== undefined) return refusal;
    const session = this.find(request.headers.get(MCP_SESSION_ID_HEADER) ?? undefined, grant);
    if (session instanceof Response) return session;
    const lastEventId = request.headers.get('last-event-id');
    const store = this.hooks.eventStore;
    if (lastEventId !== null && store !== undefined) return session.resume(lastEventId, store);
    return session.openStandalone(request);
  }

  /** DELETE: the client ends its session. */
  async delete(request: Request, grant: HttpGrant): Promise<Response> {
    const session = this.find(request.headers.get(MCP_SESSION_ID_HEADER) ?? undefined, grant);
    if (session instanceof Response) return session;
    await session.close();
    return new Response(null, { status: 200 });
  }

  /** Closes every session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map(({ session }) => session.close()));
  }

  private async openSession(
    sessionId: string | undefined,
    owner: string | undefined,
  ): Promise<HttpLegacySession | Response> {
    const session = new HttpLegacySession({
      sessionId,
      store: this.hooks.eventStore,
      maxQueuedMessages: this.maxQueuedMessages,
      keepAliveIntervalMs: this.settings.keepAliveIntervalMs,
      onClosed: () => this.forget(sessionId),
    });
    if (sessionId !== undefined) {
      this.sessions.set(sessionId, { session, owner, timer: undefined });
      this.touch(sessionId);
    }
    try {
      await this.hooks.onSession(session);
    } catch (error) {
      this.settings.onerror?.(asError(error));
      await session.close();
      return errorResponse(500, {
        code: ErrorCode.InternalError,
        message: 'The session could not be opened',
      });
    }
    return session;
  }

  /**
   * The session named by the request, or the refusal: 400 without an id, 404 when unknown or
   * owned by someone else (indistinguishable, so a session id reveals nothing).
   */
  private find(
    sessionId: string | undefined,
    grant: HttpGrant,
    id?: RequestId,
  ): HttpLegacySession | Response {
    if (sessionId === undefined) {
      return errorResponse(
        400,
        {
          code: ErrorCode.InvalidRequest,
          message: `The ${MCP_SESSION_ID_HEADER} header is required`,
        },
        { id },
      );
    }
    const entry = this.sessions.get(sessionId);
    if (entry === undefined || entry.owner !== grant.owner) {
      return errorResponse(
        404,
        { code: ErrorCode.InvalidRequest, message: 'Session not found; initialize a new one' },
        { id },
      );
    }
    this.touch(sessionId);
    return entry.session;
  }

  // Restarts the idle clock; a session that is busy when it runs out gets another period.
  private touch(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = unrefTimer(
      setTimeout(() => {
        if (entry.session.busy) this.touch(sessionId);
        else void entry.session.close();
      }, this.idleTimeoutMs),
    );
  }

  private forget(sessionId: string | undefined): void {
    if (sessionId === undefined) return;
    const entry = this.sessions.get(sessionId);
    if (entry?.timer !== undefined) clearTimeout(entry.timer);
    this.sessions.delete(sessionId);
  }
}
