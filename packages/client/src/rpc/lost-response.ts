/**
 * Transport errors that mean a pending request's response is lost, so that request fails at
 * once instead of waiting out its timeout:
 *
 * - `MESSAGE_TOO_LARGE` from NDJSON framing (stdio) carries what the oversized line's first and
 *   last bytes tell (`details.kind`, `details.id`). A response, or a message of unknown kind,
 *   whose id was read fails that request. When no id could be read, it fails the only pending
 *   request, if there is exactly one (nothing else could have been answered); with several
 *   pending, guessing could fail the wrong one, so they keep their own timeouts. A request or
 *   notification from the server fails nothing.
 * - `MESSAGE_TOO_LARGE` from an HTTP response stream (`details.requestId`) may have been a
 *   progress notification: it is remembered on that request, which fails with it when its
 *   stream then ends without the response.
 * - `CONNECTION_CLOSED` with `details.requestId`: that request's response stream ended before
 *   the response (modern HTTP never resends it elsewhere).
 * - `INVALID_MESSAGE` with `details.responseId` (stdio framing): the response to that request
 *   arrived but is not a valid JSON-RPC response, and no valid one will follow.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import type { PendingRequest, PendingTable } from './pending';

/** The request a transport error fails, and the error it fails with. */
export interface LostResponse {
  pending: PendingRequest;
  error: LocalError;
}

/** What `error` means for the pending requests in `table` (see the module comment). */
export function lostResponse(error: LocalError, table: PendingTable): LostResponse | undefined {
  const details = error.details ?? {};
  const streamOf = table.get(details.requestId);
  if (error.code === LocalErrorCode.MessageTooLarge) {
    if (typeof details.kind === 'string') {
      if (details.kind === 'request' || details.kind === 'notification') return undefined;
      const pending = 'id' in details ? table.get(details.id) : onlyOne(table);
      return pending && { pending, error: tooLarge(pending, error) };
    }
    if (streamOf !== undefined) streamOf.droppedOversized ??= error;
    return undefined;
  }
  if (error.code === LocalErrorCode.InvalidMessage && 'responseId' in details) {
    const pending = table.get(details.responseId);
    return pending && { pending, error: invalidResponse(pending, error) };
  }
  if (error.code === LocalErrorCode.ConnectionClosed && streamOf !== undefined) {
    const dropped = streamOf.droppedOversized;
    return {
      pending: streamOf,
      error: dropped ? tooLarge(streamOf, dropped) : lostWith(streamOf, error),
    };
  }
  return undefined;
}

function onlyOne(table: PendingTable): PendingRequest | undefined {
  if (table.size !== 1) return undefined;
  return table.all()[0];
}

/** `MESSAGE_TOO_LARGE` for `pending`, naming the limit its response went over. */
function tooLarge(pending: PendingRequest, source: LocalError): LocalError {
  const details = source.details ?? {};
  const limit = details.maxMessageBytes ?? details.limit;
  return new LocalError(
    LocalErrorCode.MessageTooLarge,
    `Request ${pending.method} failed: its response is larger than this client's limit of ${limit} bytes`,
    { cause: source, details: { method: pending.method, id: pending.id, limit } },
  );
}

/** `INVALID_MESSAGE` for `pending`, saying what was wrong with its response. */
function invalidResponse(pending: PendingRequest, source: LocalError): LocalError {
  const reason = String(source.details?.reason ?? source.message);
  return new LocalError(
    LocalErrorCode.InvalidMessage,
    `Request ${pending.method} failed: the server's response is invalid (${reason})`,
    { cause: source, details: { method: pending.method, id: pending.id, reason } },
  );
}

function lostWith(pending: PendingRequest, source: LocalError): LocalError {
  return new LocalError(
    LocalErrorCode.ConnectionClosed,
    `Request ${pending.method} failed: ${source.message}`,
    { cause: source, details: { ...source.details, method: pending.method, id: pending.id } },
  );
}
