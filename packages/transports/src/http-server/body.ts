/**
 * Reads a POST body as UTF-8 text under a byte limit and a time limit. The byte limit is
 * enforced while the body streams in (a declared `Content-Length` over it is refused before
 * reading), so an oversized body is never buffered whole; the time limit bounds a body that
 * trickles in or never ends, on every runtime (not only behind the node adapter's timeouts).
 * A body refused either way is answered with `Connection: close`: the rest of it is never
 * read, so the connection cannot carry another request.
 */
import {
  type DecodedMessage,
  decodeMessage,
  ErrorCode,
  parseMessage,
} from '@twofold/protocol/experimental';
import type { BodyLimits, IncomingRequest } from './incoming';
import { type Answer, errorResponse, Reply, rejectRequest } from './responses';

/** The posted message, or the refusal to send instead. */
export type MessageResult = { ok: true; decoded: DecodedMessage } | { ok: false; response: Reply };

/** The body's text, or the refusal to send instead. */
export type BodyResult = { ok: true; text: string } | { ok: false; response: Reply };

/** Marks an answer as the last on its connection (HTTP/1.1 `Connection: close`). */
export function closingConnection(answer: Answer): Answer {
  if (answer instanceof Reply) {
    answer.headers.Connection = 'close';
    return answer;
  }
  try {
    answer.headers.set('Connection', 'close');
    return answer;
  } catch {
    // Immutable headers (a Response that came from fetch): the same answer, rebuilt.
    const headers = new Headers(answer.headers);
    headers.set('Connection', 'close');
    return new Response(answer.body, { status: answer.status, headers });
  }
}

/**
 * Drops a request body the handler answered without reading (a refusal before the body): it
 * is cancelled and the connection closed after the answer, instead of reading and discarding
 * an upload of any size to keep the connection alive.
 */
export function discardUnreadBody(request: IncomingRequest, answer: Answer): Answer {
  return request.discardBody() ? closingConnection(answer) : answer;
}

function refused(status: number, message: string): { ok: false; response: Reply } {
  const response = rejectRequest(status, message);
  response.headers.Connection = 'close';
  return { ok: false, response };
}

const tooLarge = (limits: BodyLimits) =>
  refused(413, `Request body exceeds the limit of ${limits.maxBytes} bytes`);
const tooSlow = (limits: BodyLimits) =>
  refused(408, `Request body not received within ${limits.timeoutMs} ms`);

/**
 * Reads and decodes the body: 413 over `maxBytes`, 408 past `timeoutMs` (both closing the
 * connection), 400 (-32700) for invalid UTF-8.
 */
export async function readBodyText(
  request: IncomingRequest,
  limits: BodyLimits,
): Promise<BodyResult> {
  if (request.bodyUsed) return { ok: false, response: bodyAlreadyRead() };
  const declared = request.header('content-length');
  if (declared !== undefined && Number(declared) > limits.maxBytes) {
    request.discardBody();
    return tooLarge(limits);
  }
  const bytes = await request.readBody(limits);
  if (bytes === 'too-large') return tooLarge(limits);
  if (bytes === 'too-slow') return tooSlow(limits);
  // Nobody is left to read this answer; it only ends the exchange without an error report.
  if (bytes === 'cut-off') return refused(400, 'The request body was cut off');
  return decodeText(bytes);
}

// One decoder for every body: `fatal` decoding keeps no state between calls.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text; 400 (-32700) when they are not valid UTF-8. */
function decodeText(bytes: Uint8Array): BodyResult {
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return {
      ok: false,
      response: errorResponse(400, {
        code: ErrorCode.ParseError,
        message: 'Parse error: the body is not valid UTF-8',
      }),
    };
  }
}

/**
 * The answer when the body was read before the handler got it and nothing was passed in its
 * place: a host misconfiguration (500), said in words rather than left to hang.
 */
export function bodyAlreadyRead(): Reply {
  return rejectRequest(
    500,
    'The request body was already read (a body parser ran before the MCP handler) and no ' +
      'parsed body was passed: pass it as `parsedBody`, or mount the handler before the parser',
  );
}

/**
 * The one JSON-RPC message of a POST: from `parsedBody` when a framework already read it (a
 * JSON value, or its text or bytes), else read from the request under `limits`; 400 (-32700 or
 * -32600) when it is not one valid message.
 */
export async function readPostedMessage(
  request: IncomingRequest,
  limits: BodyLimits,
  parsedBody: unknown,
): Promise<MessageResult> {
  const decoded = isRawBody(parsedBody)
    ? await rawBodyText(request, limits, parsedBody)
    : decodeMessage(parsedBody);
  if ('response' in decoded) return decoded;
  if (!decoded.ok) {
    return { ok: false, response: errorResponse(400, decoded.error, { id: decoded.id }) };
  }
  return { ok: true, decoded };
}

function isRawBody(parsedBody: unknown): parsedBody is string | Uint8Array | undefined {
  return (
    parsedBody === undefined || typeof parsedBody === 'string' || parsedBody instanceof Uint8Array
  );
}

async function rawBodyText(
  request: IncomingRequest,
  limits: BodyLimits,
  parsedBody: string | Uint8Array | undefined,
) {
  const body =
    parsedBody === undefined
      ? await readBodyText(request, limits)
      : typeof parsedBody === 'string'
        ? { ok: true as const, text: parsedBody }
        : decodeText(parsedBody);
  return body.ok ? parseMessage(body.text) : body;
}
