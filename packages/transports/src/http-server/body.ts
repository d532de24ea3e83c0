/**
 * Reads a POST body as UTF-8 text under a byte limit. The limit is enforced while the body
 * streams in (a declared `Content-Length` over it is refused before reading), so an oversized
 * body is never buffered whole.
 */
import { ErrorCode } from '@twofold/protocol/experimental';
import { errorResponse, rejectRequest } from './responses';

/** The body's text, or the refusal to send instead. */
export type BodyResult = { ok: true; text: string } | { ok: false; response: Response };

function tooLarge(maxBytes: number): BodyResult {
  return {
    ok: false,
    response: rejectRequest(413, `Request body exceeds the limit of ${maxBytes} bytes`),
  };
}

/** Reads the body's bytes, stopping (and cancelling the stream) at the first byte over the limit. */
async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Reads and decodes the body: 413 over `maxBytes`, 400 (-32700) for invalid UTF-8. */
export async function readBodyText(request: Request, maxBytes: number): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return tooLarge(maxBytes);
  const bytes = await readBytes(request, maxBytes);
  if (bytes === undefined) return tooLarge(maxBytes);
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
