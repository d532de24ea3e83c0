/**
 * Which era an inbound message belongs to (server side), as pure functions. Follows the
 * dual-era routing of DIGEST §4.3: `initialize` opens a legacy session, a request naming its
 * version in `_meta` is modern, anything else belongs to an existing legacy session.
 */
import type { ErrorObject } from './errors';
import { ErrorCode } from './errors';
import type { DecodedMessage } from './jsonrpc';
import { protocolVersionOf } from './meta';
import { isLegacyVersion, isModernVersion } from './versions';

/**
 * The era of one inbound message on a connection (stdio) or endpoint.
 *
 * @experimental
 */
export type InboundEra =
  /** A legacy `initialize`: start (or restart) a legacy session. */
  | { era: 'legacy'; kind: 'initialize'; requestedVersion: string | undefined }
  /** A message of an existing legacy session (requests without modern `_meta`, responses). */
  | { era: 'legacy'; kind: 'session' }
  /** A modern request; `version` may still be one the server does not offer (-32022). */
  | { era: 'modern'; kind: 'request'; version: string }
  /** A notification without a version of its own: it belongs to whatever the connection is. */
  | { era: 'either'; kind: 'notification' };

/**
 * Classifies one decoded inbound message by era.
 *
 * @experimental
 */
export function classifyInbound(decoded: DecodedMessage): InboundEra {
  switch (decoded.kind) {
    case 'request': {
      const { method, params } = decoded.message;
      const version = protocolVersionOf(params);
      // A request naming its version in _meta is modern whatever its method: a modern
      // `initialize` is an era-removed method (-32601), not a legacy handshake.
      if (version !== undefined) return { era: 'modern', kind: 'request', version };
      if (method === 'initialize') {
        const requested = params?.protocolVersion;
        return {
          era: 'legacy',
          kind: 'initialize',
          requestedVersion: typeof requested === 'string' ? requested : undefined,
        };
      }
      return { era: 'legacy', kind: 'session' };
    }
    case 'notification': {
      const version = protocolVersionOf(decoded.message.params);
      return version === undefined
        ? { era: 'either', kind: 'notification' }
        : { era: 'modern', kind: 'request', version };
    }
    default:
      // Only legacy clients send responses (to server-initiated requests).
      return { era: 'legacy', kind: 'session' };
  }
}

/**
 * What an HTTP POST tells about itself beyond its body.
 *
 * @experimental
 */
export interface HttpPostFacts {
  /** The `MCP-Protocol-Version` header, if sent. */
  protocolVersionHeader?: string | undefined;
  /** The `Mcp-Session-Id` header, if sent. */
  sessionId?: string | undefined;
}

/**
 * Where a dual-era HTTP endpoint sends a POST.
 *
 * @experimental
 */
export type HttpRoute =
  | { route: 'initialize'; requestedVersion: string | undefined }
  | { route: 'modern' }
  | { route: 'legacy-session'; sessionId: string | undefined }
  | { route: 'reject'; status: 400; error: ErrorObject };

/**
 * Routes a POST on a dual-era endpoint: (a) `initialize` → legacy handshake; (b) a body naming
 * its version in `_meta`, or a modern version header → modern, stateless; (c) a session id or a
 * legacy version header → that legacy session; (d) otherwise reject. A POST without any
 * version would mean 2025-03-26, which twofold does not offer.
 *
 * @experimental
 */
export function routeHttpPost(decoded: DecodedMessage, facts: HttpPostFacts): HttpRoute {
  const inbound = classifyInbound(decoded);
  if (inbound.kind === 'initialize')
    return { route: 'initialize', requestedVersion: inbound.requestedVersion };
  if (inbound.era === 'modern' || isModernVersion(facts.protocolVersionHeader))
    return { route: 'modern' };
  if (facts.sessionId !== undefined || isLegacyVersion(facts.protocolVersionHeader)) {
    return { route: 'legacy-session', sessionId: facts.sessionId };
  }
  const header = facts.protocolVersionHeader;
  const message =
    header === undefined
      ? 'Missing MCP-Protocol-Version header (2025-03-26 is not supported)'
      : `Unsupported MCP-Protocol-Version header ${JSON.stringify(header)}`;
  return { route: 'reject', status: 400, error: { code: ErrorCode.HeaderMismatch, message } };
}
