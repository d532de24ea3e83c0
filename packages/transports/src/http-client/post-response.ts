/**
 * What the answer to a POSTed JSON-RPC message means (both Streamable HTTP eras). A JSON-RPC
 * error body is a real answer even with a 4xx status: the dual-era client reads the status next
 * to it (see protocol's `classifyHttpProbe`). Everything else that is not a 2xx answer becomes a
 * typed error carrying the HTTP facts.
 */
import { type JsonRpcMessage, parseMessage } from '@twofold/protocol/experimental';
import {
  discardBody,
  mediaTypeOf,
  readBodyText,
  responseFailure,
  sessionExpired,
} from './http-response';
import type { HttpFetchResponse } from './options';
import type { RequestScope } from './request-scope';

/** The usable content of a POST's response. */
export type PostOutcome =
  /** Accepted, nothing to deliver (202 for a notification or a response). */
  | { kind: 'accepted' }
  /** One message in a JSON body. */
  | { kind: 'message'; message: JsonRpcMessage }
  /** An SSE stream to read. */
  | { kind: 'stream'; body: ReadableStream<Uint8Array> };

/** What the POST carried and how the response is judged. */
export interface PostContext {
  scope: RequestScope;
  /** The POST carried a request, which must be answered in the response. */
  expectsAnswer: boolean;
  /** The POST carried a legacy session id: a 404 then means the session is gone. */
  sessionBound: boolean;
  maxResponseBytes: number;
}

/**
 * Interprets the response to a POSTed message, reading a JSON body (bounded) but not an SSE
 * stream. Throws `UNAUTHORIZED`, `SESSION_EXPIRED`, `MESSAGE_TOO_LARGE` or `HTTP_ERROR`.
 */
export async function interpretPostResponse(
  response: HttpFetchResponse,
  context: PostContext,
): Promise<PostOutcome> {
  const { scope } = context;
  const { status } = response;
  const type = mediaTypeOf(response);
  if (status === 401 || status === 403) throw await responseFailure(response, scope, '');
  if (status === 404 && context.sessionBound) throw await sessionExpired(response, scope);
  const ok = status >= 200 && status < 300;
  if (ok && type === 'text/event-stream' && response.body !== null) {
    return { kind: 'stream', body: response.body as ReadableStream<Uint8Array> };
  }
  if (type === 'application/json') {
    const text = await readBodyText(response, context.maxResponseBytes, scope);
    if (ok && !context.expectsAnswer && text.trim() === '') return { kind: 'accepted' };
    const decoded = parseMessage(text);
    // A non-2xx status carries a usable answer only as a JSON-RPC error.
    if (decoded.ok && (ok || decoded.kind === 'error')) {
      return { kind: 'message', message: decoded.message };
    }
    const reason = decoded.ok
      ? `HTTP ${status} with a JSON-RPC ${decoded.kind} instead of an error`
      : `HTTP ${status} with a body that is not a JSON-RPC message (${decoded.error.message})`;
    throw await responseFailure(response, scope, reason, text);
  }
  if (ok && !context.expectsAnswer) {
    await discardBody(response);
    return { kind: 'accepted' };
  }
  const reason = ok
    ? `HTTP ${status} ${type === '' ? 'without a body type' : `with content type ${type}`}; a request needs application/json or text/event-stream`
    : `HTTP ${status}`;
  throw await responseFailure(response, scope, reason);
}
