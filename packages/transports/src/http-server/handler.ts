/**
 * The Streamable HTTP server core: a web-standard `(Request) => Promise<Response>` that owns the
 * HTTP duties of an MCP endpoint for both eras, so the server package only implements MCP. Its
 * `answer` entry serves the same requests without web objects (node:http).
 *
 * POST checks, in order: Host (403) → Origin (403) → access control's authenticate (401) →
 * Content-Type (415) → Accept (406) → body size (413) → UTF-8 (400, -32700) → JSON (400,
 * -32700) → one message, not a batch (400, -32600) → era routing → modern header validation
 * (400, -32020) → access control's authorize (403) → the handler.
 */
import {
  type DecodedMessage,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  MODERN_VERSIONS,
  type RequestId,
  routeHttpPost,
  UnsupportedProtocolVersionError,
} from '@twofold/protocol/experimental';
import { authenticate, authorize } from './access';
import { discardUnreadBody, readPostedMessage } from './body';
import { checkAccept, checkContentType, checkHost, checkOrigin } from './guards';
import { type IncomingRequest, WebIncoming } from './incoming';
import { LegacyEndpoint } from './legacy/endpoint';
import { type CoreSettings, handleModernPost } from './modern';
import { type Answer, errorResponse, isAnswer, methodNotAllowed, toResponse } from './responses';
import type {
  AnsweringHandler,
  CoreHandler,
  HttpGrant,
  HttpRequestContext,
  HttpServerCoreOptions,
} from './types';

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 60_000;
const DEFAULT_KEEP_ALIVE_INTERVAL_MS = 15_000;

/**
 * The handler returned by {@link createHttpHandler}: an {@link HttpHandler} that can also be
 * shut down.
 *
 * @experimental
 */
export interface HttpServerHandler extends AnsweringHandler {
  /** Closes every legacy session (ending their streams and pending POSTs). */
  close(): Promise<void>;
}

function positiveOption(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isFinite(resolved) || resolved < 0) {
    throw new RangeError(`${name} must be a non-negative number: ${resolved}`);
  }
  return resolved;
}

/**
 * Creates the Streamable HTTP endpoint handler. With `modern`, it serves 2026-07-28 requests
 * statelessly; with `legacy`, it serves `initialize` sessions (2025-11-25, 2025-06-18,
 * 2024-11-05) through the hooks; with both, one endpoint serves both eras. A modern-only
 * endpoint answers GET and DELETE with 405.
 *
 * Defaults: `maxBodyBytes` 4 MiB, `bodyTimeoutMs` 60 s, `keepAliveIntervalMs` 15 s, and the
 * DNS-rebinding rules of {@link HttpServerCoreOptions.allowedHosts} and
 * {@link HttpServerCoreOptions.allowedOrigins}. A POST refused before its body is read is
 * answered with `Connection: close`, its body left unread. A body a framework already read
 * is taken from the second argument ({@link HttpRequestContext.parsedBody}).
 *
 * @throws TypeError when neither `modern` nor `legacy` is given.
 * @experimental
 */
export function createHttpHandler(options: HttpServerCoreOptions): HttpServerHandler {
  if (options.modern === undefined && options.legacy === undefined) {
    throw new TypeError('createHttpHandler needs a modern handler, legacy hooks, or both');
  }
  const settings: CoreSettings = {
    ...options,
    maxBodyBytes: positiveOption('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES),
    bodyTimeoutMs: positiveOption('bodyTimeoutMs', options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS),
    keepAliveIntervalMs: positiveOption(
      'keepAliveIntervalMs',
      options.keepAliveIntervalMs,
      DEFAULT_KEEP_ALIVE_INTERVAL_MS,
    ),
  };
  const legacy =
    options.legacy === undefined ? undefined : new LegacyEndpoint(options.legacy, settings);
  const allow = legacy?.hasSessions === true ? 'GET, POST, DELETE' : 'POST';

  const route = async (request: IncomingRequest, context: HttpRequestContext): Promise<Answer> => {
    const refusal =
      checkHost(request, options.allowedHosts, context) ??
      checkOrigin(request, options.allowedOrigins);
    if (refusal !== undefined) return refusal;
    const sessions = legacy?.hasSessions === true ? legacy : undefined;
    const served =
      request.method === 'POST' ||
      (sessions !== undefined && (request.method === 'GET' || request.method === 'DELETE'));
    if (!served) return methodNotAllowed(allow);
    const grant = await authenticate(request, settings);
    if (isAnswer(grant)) return grant;
    if (request.method === 'POST') return handlePost(request, context, settings, legacy, grant);
    // Only a sessionful legacy endpoint gets here with GET or DELETE.
    const endpoint = sessions as LegacyEndpoint;
    return request.method === 'GET'
      ? endpoint.get(request, grant)
      : endpoint.delete(request, grant);
  };
  // Nothing of a request refused before its body is read: the adapter drops the rest of it.
  const answer: CoreHandler = async (request, context = {}) =>
    discardUnreadBody(request, await route(request, context));
  const handler = async (request: Request, context?: HttpRequestContext) =>
    toResponse(await answer(new WebIncoming(request), context));
  return Object.assign(handler, { answer, close: async () => legacy?.close() });
}

async function handlePost(
  request: IncomingRequest,
  context: HttpRequestContext,
  settings: CoreSettings,
  legacy: LegacyEndpoint | undefined,
  grant: HttpGrant,
): Promise<Answer> {
  const refusal =
    checkContentType(request) ?? checkAccept(request, ['application/json', 'text/event-stream']);
  if (refusal !== undefined) return refusal;
  const limits = { maxBytes: settings.maxBodyBytes, timeoutMs: settings.bodyTimeoutMs };
  const posted = await readPostedMessage(request, limits, context.parsedBody);
  if (!posted.ok) return posted.response;
  const decoded: DecodedMessage = posted.decoded;

  const protocolVersionHeader = request.header(MCP_PROTOCOL_VERSION_HEADER);
  const sessionId = request.header(MCP_SESSION_ID_HEADER);
  const route = routeHttpPost(decoded, { protocolVersionHeader, sessionId });
  const id = decoded.kind === 'request' ? decoded.message.id : undefined;
  switch (route.route) {
    case 'modern':
      return handleModernPost(request, decoded, settings, grant);
    case 'reject':
      return errorResponse(route.status, route.error, { id });
    case 'initialize':
      if (legacy === undefined) return modernOnly(route.requestedVersion ?? '', id);
      return (
        (await authorize(decoded, grant, settings)) ?? legacy.initialize(request, decoded, grant)
      );
    case 'legacy-session':
      if (legacy === undefined) return modernOnly(protocolVersionHeader ?? '', id);
      return (
        (await authorize(decoded, grant, settings)) ??
        legacy.post(request, decoded, route.sessionId, grant)
      );
  }
}

/** A legacy message on a modern-only endpoint: the versions it offers, so the client can move on. */
function modernOnly(requested: string, id: RequestId | undefined): Answer {
  const error = new UnsupportedProtocolVersionError(MODERN_VERSIONS, requested).toErrorObject();
  return errorResponse(400, error, { id });
}
