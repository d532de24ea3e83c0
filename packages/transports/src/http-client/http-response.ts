/**
 * Reading HTTP responses safely: bounded bodies, content types, and the typed errors for
 * responses that carry no usable message (HTML pages, empty errors, wrong content types).
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { concatBytes } from '../bytes';
import type { HttpFetchResponse } from './options';
import type { RequestScope } from './request-scope';

/** How many bytes of an unusable body are read for the error's `bodySnippet`. */
const SNIPPET_BYTES = 4096;
/** How many characters of it are kept. */
const SNIPPET_CHARS = 512;

/** The media type of a response, lower-cased, without parameters (`''` when absent). */
export function mediaTypeOf(response: HttpFetchResponse): string {
  const header = response.headers.get('content-type') ?? '';
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

/** Cuts a text for an error message or `details`. */
export function truncateText(text: string, maxChars = SNIPPET_CHARS): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}… (${text.length} chars)`;
}

/** Releases a body that will not be read, so its connection is freed. */
export async function discardBody(response: HttpFetchResponse): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/**
 * Reads a whole body as strict UTF-8, failing with `MESSAGE_TOO_LARGE` past `limit` bytes (the
 * rest is not read). Each chunk counts as activity of the exchange.
 */
export async function readBodyText(
  response: HttpFetchResponse,
  limit: number,
  scope: RequestScope,
): Promise<string> {
  const tooLarge = () =>
    new LocalError(
      LocalErrorCode.MessageTooLarge,
      `${scope.label.what}: response body exceeds ${limit} bytes`,
      { details: { ...scope.details(), status: response.status, limit } },
    );
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await discardBody(response);
    throw tooLarge();
  }
  const chunks = await readChunks(response, limit, scope);
  if (chunks === undefined) throw tooLarge();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(concatBytes(chunks));
  } catch (cause) {
    throw new LocalError(
      LocalErrorCode.HttpError,
      `${scope.label.what}: response body is not valid UTF-8`,
      { cause, details: { ...scope.details(), status: response.status } },
    );
  }
}

/**
 * The typed error for a response that carries no usable message: `UNAUTHORIZED` for 401/403
 * (with `wwwAuthenticate`), else `HTTP_ERROR`. `details` holds the status, the content type, the
 * start of the body, and the message's method and id. `text` is the body when already read.
 */
export async function responseFailure(
  response: HttpFetchResponse,
  scope: RequestScope,
  reason: string,
  text?: string,
): Promise<LocalError> {
  const body = text ?? (await readSnippet(response, scope));
  const details: Record<string, unknown> = {
    status: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    bodySnippet: truncateText(body),
    ...scope.details(),
  };
  const { status } = response;
  if (status === 401 || status === 403) {
    const challenge = response.headers.get('www-authenticate') ?? undefined;
    details.wwwAuthenticate = challenge;
    // A 403 without a scope challenge is a refusal (a Host or Origin check), not a login matter.
    const why =
      status === 401 || /insufficient_scope/i.test(challenge ?? '')
        ? 'not authorized'
        : 'forbidden';
    return new LocalError(
      LocalErrorCode.Unauthorized,
      `${scope.label.what}: HTTP ${status} (${why})`,
      {
        details,
      },
    );
  }
  return new LocalError(LocalErrorCode.HttpError, `${scope.label.what}: ${reason}`, { details });
}

/** The legacy session named by a request is gone (404): the client must re-initialize. */
export async function sessionExpired(
  response: HttpFetchResponse,
  scope: RequestScope,
): Promise<LocalError> {
  await discardBody(response);
  return new LocalError(
    LocalErrorCode.SessionExpired,
    `${scope.label.what}: the server no longer knows this session (HTTP 404); re-initialize`,
    { details: { ...scope.details(), status: response.status } },
  );
}

/** The start of a body (bounded, lenient UTF-8), then the rest is dropped. */
async function readSnippet(response: HttpFetchResponse, scope: RequestScope): Promise<string> {
  try {
    const chunks = await readChunks(response, SNIPPET_BYTES, scope, true);
    return new TextDecoder().decode(concatBytes(chunks ?? []));
  } catch {
    // The snippet only decorates the error; a body that fails mid-read leaves it empty.
    return '';
  }
}

/**
 * Reads chunks until the end or until `limit` bytes. Past the limit the body is cancelled and
 * the result is `undefined`, or with `keepPrefix` the first `limit` bytes.
 */
async function readChunks(
  response: HttpFetchResponse,
  limit: number,
  scope: RequestScope,
  keepPrefix = false,
): Promise<Uint8Array[] | undefined> {
  const chunks: Uint8Array[] = [];
  if (response.body === null) return chunks;
  const reader = response.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    scope.touch();
    const chunk = value as Uint8Array;
    size += chunk.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      if (!keepPrefix) return undefined;
      chunks.push(chunk.subarray(0, chunk.byteLength - (size - limit)));
      return chunks;
    }
    chunks.push(chunk);
  }
}
