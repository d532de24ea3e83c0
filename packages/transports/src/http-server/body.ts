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
import { errorResponse, rejectRequest } from './responses';
import { unrefTimer } from './sse-stream';

/** The posted message, or the refusal to send instead. */
export type MessageResult =
  | { ok: true; decoded: DecodedMessage }
  | { ok: false; response: Response };

/** The body's text, or the refusal to send instead. */
export type BodyResult = { ok: true; text: string } | { ok: false; response: Response };

/** The bounds of one body read. */
export interface BodyLimits {
  maxBytes: number;
  /** From the start of the read to its end; 0 turns the bound off. */
  timeoutMs: number;
}

/** Marks a response as the last on its connection (HTTP/1.1 `Connection: close`). */
export function closingConnection(response: Response): Response {
  try {
    response.headers.set('Connection', 'close');
    return response;
  } catch {
    // Immutable headers (a Response that came from fetch): the same answer, rebuilt.
    const headers = new Headers(response.headers);
    headers.set('Connection', 'close');
    return new Response(response.body, { status: response.status, headers });
  }
}

/**
 * Drops a request body the handler answered without reading (a refusal before the body): it
 * is cancelled and the connection closed after the answer, instead of reading and discarding
 * an upload of any size to keep the connection alive.
 */
export function discardUnreadBody(request: Request, response: Response): Response {
  if (request.body === null || request.bodyUsed) return response;
  request.body.cancel().catch(() => undefined);
  return closingConnection(response);
}

function refused(status: number, message: string): BodyResult {
  return { ok: false, response: closingConnection(rejectRequest(status, message)) };
}

const tooLarge = (limits: BodyLimits) =>
  refused(413, `Request body exceeds the limit of ${limits.maxBytes} bytes`);
const tooSlow = (limits: BodyLimits) =>
  refused(408, `Request body not received within ${limits.timeoutMs} ms`);

/**
 * Reads the body's bytes, stopping (and cancelling the stream) at the first byte over the limit
 * (`'too-large'`) or when the time runs out (`'too-slow'`); `'cut-off'` when the stream fails.
 */
async function readBytes(
  request: Request,
  limits: BodyLimits,
): Promise<Uint8Array | 'too-large' | 'too-slow' | 'cut-off'> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'too-slow'>((resolve) => {
    if (limits.timeoutMs > 0) timer = unrefTimer(setTimeout(resolve, limits.timeoutMs, 'too-slow'));
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      // A body that fails to arrive (the client or the adapter dropped the connection).
      const next = await Promise.race([reader.read(), expired]).catch(() => 'cut-off' as const);
      if (next === 'cut-off') return next;
      if (next === 'too-slow') {
        await reader.cancel().catch(() => undefined);
        return next;
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > limits.maxBytes) {
        await reader.cancel().catch(() => undefined);
        return 'too-large';
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return concat(chunks, total);
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads and decodes the body: 413 over `maxBytes`, 408 past `timeoutMs` (both closing the
 * connection), 400 (-32700) for invalid UTF-8.
 */
export async function readBodyText(request: Request, limits: BodyLimits): Promise<BodyResult> {
  if (request.bodyUsed) return { ok: false, response: bodyAlreadyRead() };
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limits.maxBytes) {
    request.body?.cancel().catch(() => undefined);
    return tooLarge(limits);
  }
  const bytes = await readBytes(request, limits);
  if (bytes === 'too-large') return tooLarge(limits);
  if (bytes === 'too-slow') return tooSlow(limits);
  // Nobody is left to read this answer; it only ends the exchange without an error report.
  if (bytes === 'cut-off') return refused(400, 'The request body was cut off');
  return decodeText(bytes);
}

/** The bytes as UTF-8 text; 400 (-32700) when they are not valid UTF-8. */
function decodeText(bytes: Uint8Array): BodyResult {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
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
export function bodyAlreadyRead(): Response {
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
  request: Request,
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
  request: Request,
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
