/**
 * Asking the endpoint's access control (an OAuth resource server) about a request and its
 * messages. A failing hook is a server fault: 500, reported, never the client's 401.
 */
import { type DecodedMessage, ErrorCode } from '@twofold/protocol/experimental';
import { asError } from './failures';
import type { IncomingRequest } from './incoming';
import { type Answer, errorResponse } from './responses';
import type { HttpGrant, HttpServerCoreOptions } from './types';

// Without access control every request is let through with an empty grant.
const OPEN: HttpGrant = Object.freeze({});

const INTERNAL = { code: ErrorCode.InternalError, message: 'Internal error' };

/** The access control's verdict on a request: its grant, or the refusal to answer with. */
export async function authenticate(
  request: IncomingRequest,
  settings: HttpServerCoreOptions,
): Promise<HttpGrant | Answer> {
  if (settings.access === undefined) return OPEN;
  try {
    return await settings.access.authenticate(request.toRequest());
  } catch (error) {
    settings.onerror?.(asError(error));
    return errorResponse(500, INTERNAL);
  }
}

/** The access control's verdict on one message: `undefined` lets it through. */
export async function authorize(
  decoded: DecodedMessage,
  grant: HttpGrant,
  settings: HttpServerCoreOptions,
): Promise<Answer | undefined> {
  if (settings.access?.authorize === undefined) return undefined;
  try {
    return await settings.access.authorize(decoded.message, grant);
  } catch (error) {
    settings.onerror?.(asError(error));
    const id = decoded.kind === 'request' ? decoded.message.id : undefined;
    return errorResponse(500, INTERNAL, { id });
  }
}
