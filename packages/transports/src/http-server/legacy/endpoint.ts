/**
 * The legacy side of the endpoint: mints sessions on `initialize`, finds them by
 * `Mcp-Session-Id` for later POSTs, GET streams and DELETEs, and closes idle ones. The session
 * table is bounded: at `maxSessions` a new `initialize` evicts the longest-idle session that
 * is not busy, or is refused with 503 when every session is busy.
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
import type { IncomingRequest } from '../incoming';
import { type Answer, errorResponse, isAnswer, Reply } from '../responses';
import { unrefTimer } from '../sse-stream';
import type { HttpGrant, LegacyHooks } from '../types';
import { HttpLegacySession } from './session';

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
const DEFAULT_MAX_QUEUED_MESSAGES = 100;
const DEFAULT_MAX_SESSIONS = 1000;
/** What a client refused for a full table of busy sessions is told to wait, in seconds. */
const FULL_RETRY_AFTER_SECONDS = 5;
/** A session id a proxy may choose: long enough to be unguessable, visible ASCII only. */
const PROPOSED_ID_RE = /^[\x21-\x7e]{16,128}$/;

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
  // Kept in order of last use (a touch moves a session to the end): the first entries are
  // the longest idle, which is what eviction looks for.
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly idleTimeoutMs: number;
  private readonly maxQueuedMessages: number;
  private readonly maxSessions: number;

  constructor(
    private readonly hooks: LegacyHooks,
    private readonly settings: LegacyEndpointSettings,
  ) {
    this.idleTimeoutMs = hooks.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.maxQueuedMessages = hooks.maxQueuedMessages ?? DEFAULT_MAX_QUEUED_MESSAGES;
    this.maxSessions = hooks.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (!Number.isInteger(this.maxSessions) || this.maxSessions < 1) {
      throw new RangeError(`maxSessions must be a positive integer: ${this.maxSessions}`);
    }
  }

  /** Whether GET and DELETE mean anything here (not in stateless mode). */
  get hasSessions(): boolean {
    return this.hooks.stateless !== true;
  }

  /** `initialize`: a new session (one-shot when stateless) receives it. */
  async initialize(
    request: IncomingRequest,
    decoded: DecodedMessage,
    grant: HttpGrant,
  ): Promise<Answer> {
    if (this.hasSessions && !this.makeRoom()) {
      const id = decoded.kind === 'request' ? decoded.message.id : undefined;
      return errorResponse(
        503,
        {
          code: ErrorCode.InternalError,
          message: `Too many sessions: all ${this.maxSessions} are busy; retry later`,
          data: { reason: 'too-many-sessions', maxSessions: this.maxSessions },
        },
        { id, headers: { 'Retry-After': String(FULL_RETRY_AFTER_SECONDS) } },
      );
    }
    const sessionId = this.hasSessions ? this.newSessionId(request) : undefined;
    const session = await this.openSession(sessionId, grant.owner);
    if (isAnswer(session)) return session;
    return session.handlePost(request, decoded, { closeOnError: true, auth: grant.auth });
  }

  /** The proxy's id for the session (`sessionIdHeader`) when usable, else a random one. */
  private newSessionId(request: IncomingRequest): string {
    const header = this.hooks.sessionIdHeader;
    const proposed = header === undefined ? undefined : request.header(header);
    if (proposed !== undefined && PROPOSED_ID_RE.test(proposed) && !this.sessions.has(proposed)) {
      return proposed;
    }
    return crypto.randomUUID();
  }

  /** Any other legacy POST: routed to its session (a one-shot one when stateless). */
  async post(
    request: IncomingRequest,
    decoded: DecodedMessage,
    sessionId: string | undefined,
    grant: HttpGrant,
  ): Promise<Answer> {
    const id = decoded.kind === 'request' ? decoded.message.id : undefined;
    const version = request.header(MCP_PROTOCOL_VERSION_HEADER);
    if (version !== undefined && !isLegacyVersion(version)) {
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
      return isAnswer(session) ? session : session.handlePost(request, decoded, options);
    }
    const session = this.find(sessionId, grant, id);
    return isAnswer(session) ? session : session.handlePost(request, decoded, options);
  }

  /** GET: the session's stream for unrelated messages, or a resumption with `Last-Event-ID`. */
  get(request: IncomingRequest, grant: HttpGrant): Answer {
    const refusal = checkAccept(request, ['text/event-stream']);
    if (refusal !== undefined) return refusal;
    const session = this.find(request.header(MCP_SESSION_ID_HEADER), grant);
    if (isAnswer(session)) return session;
    const lastEventId = request.header('last-event-id');
    const store = this.hooks.eventStore;
    if (lastEventId !== undefined && store !== undefined) return session.resume(lastEventId, store);
    return session.openStandalone(request);
  }

  /** DELETE: the client ends its session. */
  async delete(request: IncomingRequest, grant: HttpGrant): Promise<Answer> {
    const session = this.find(request.header(MCP_SESSION_ID_HEADER), grant);
    if (isAnswer(session)) return session;
    await session.close();
    return new Reply(200, {}, null);
  }

  /** Closes every session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map(({ session }) => session.close()));
  }

  private async openSession(
    sessionId: string | undefined,
    owner: string | undefined,
  ): Promise<HttpLegacySession | Answer> {
    const session = new HttpLegacySession({
      sessionId,
      store: this.hooks.eventStore,
      retryIntervalMs: this.hooks.retryIntervalMs,
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
  ): HttpLegacySession | Answer {
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

  /**
   * Whether a new session fits: below the cap, or after closing the longest-idle session that
   * is not busy. Evicting (rather than refusing) keeps the endpoint open to new clients when
   * abandoned sessions fill the table; the evicted client's next request gets 404, which the
   * legacy revisions answer with a new `initialize`. Busy sessions (a request in flight, a GET
   * stream open) are never evicted.
   */
  private makeRoom(): boolean {
    if (this.sessions.size < this.maxSessions) return true;
    for (const entry of this.sessions.values()) {
      if (entry.session.busy) continue;
      // close() forgets the session synchronously, before its first await.
      void entry.session.close();
      return this.sessions.size < this.maxSessions;
    }
    return false;
  }

  // Restarts the idle clock (and moves the session to the end of the table's order); a session
  // that is busy when the clock runs out gets another period.
  private touch(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, entry);
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
