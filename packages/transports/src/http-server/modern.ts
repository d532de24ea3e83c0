/**
 * The modern (2026-07-28) POST path: header validation against the body, then the stateless
 * handler, answered with JSON, SSE or 202.
 */
import {
  checkRequestHeaders,
  createErrorResponse,
  type DecodedMessage,
  ErrorCode,
  LEGACY_VERSIONS,
  MCP_PROTOCOL_VERSION_HEADER,
  protocolVersionOf,
  UnsupportedProtocolVersionError,
} from '@twofold/protocol/experimental';
import { authorize } from './access';
import { PostExchange } from './exchange';
import { asError, invokeSafely } from './failures';
import type { IncomingRequest } from './incoming';
import { type Answer, acceptedResponse, errorResponse } from './responses';
import type { HttpGrant, HttpServerCoreOptions } from './types';

/** The resolved options the POST paths share. */
export interface CoreSettings extends HttpServerCoreOptions {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  keepAliveIntervalMs: number;
}

/** Answers one modern POST. */
export async function handleModernPost(
  request: IncomingRequest,
  decoded: DecodedMessage,
  settings: CoreSettings,
  grant: HttpGrant,
): Promise<Answer> {
  if (decoded.kind !== 'request' && decoded.kind !== 'notification') {
    // Only legacy clients answer server requests; a modern endpoint never sends any.
    return errorResponse(400, {
      code: ErrorCode.InvalidRequest,
      message: 'Modern clients do not send responses',
    });
  }
  const message = decoded.message;
  const id = decoded.kind === 'request' ? decoded.message.id : undefined;
  const handler = settings.modern;
  if (handler === undefined) {
    const requested =
      protocolVersionOf(message.params) ?? request.header(MCP_PROTOCOL_VERSION_HEADER) ?? '';
    const offered = settings.legacy === undefined ? [] : LEGACY_VERSIONS;
    return errorResponse(
      400,
      new UnsupportedProtocolVersionError(offered, requested).toErrorObject(),
      { id },
    );
  }

  const toolName = message.method === 'tools/call' ? message.params?.name : undefined;
  const headerParams = typeof toolName === 'string' ? settings.headerParams?.(toolName) : undefined;
  const check = checkRequestHeaders((name) => request.header(name), message, headerParams);
  if (!check.ok) {
    return errorResponse(
      400,
      {
        code: ErrorCode.HeaderMismatch,
        message: `${check.header}: ${check.reason}`,
        data: { header: check.header },
      },
      { id },
    );
  }

  const refusal = await authorize(decoded, grant, settings);
  if (refusal !== undefined) return refusal;
  const exchange = new PostExchange({
    request,
    auth: grant.auth,
    keepAliveIntervalMs: settings.keepAliveIntervalMs,
  });
  if (id === undefined) {
    invokeSafely(
      () => handler(message, exchange),
      (error) => settings.onerror?.(asError(error)),
    );
    return acceptedResponse();
  }
  invokeSafely(
    () => handler(message, exchange),
    (error) => {
      settings.onerror?.(asError(error));
      if (exchange.ended) return;
      const failure = createErrorResponse(id, {
        code: ErrorCode.InternalError,
        message: 'Internal error',
      });
      exchange.respond(failure, { status: 500 }).catch(() => undefined);
    },
  );
  return exchange.response;
}
