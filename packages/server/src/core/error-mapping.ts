/**
 * Turns whatever a request's processing threw into the JSON-RPC error of its era. Only protocol
 * and operation errors say what went wrong; anything else is an internal error whose details
 * stay on the server (reported through `onerror`), never on the wire.
 */
import { ErrorCode, type ErrorObject, ProtocolError } from '@twofold/protocol/experimental';
import { OperationError } from '../operations/types';

/** The wire error for a failure of `method` in `era`; `report` gets unexpected failures. */
export function toWireError(
  error: unknown,
  era: 'modern' | 'legacy',
  method: string,
  report?: (error: Error) => void,
): ErrorObject {
  if (error instanceof ProtocolError) return error.toErrorObject();
  if (error instanceof OperationError) {
    const code = operationErrorCode(error, era, method);
    return error.data === undefined
      ? { code, message: error.message }
      : { code, message: error.message, data: error.data };
  }
  report?.(error instanceof Error ? error : new Error(String(error)));
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}

function operationErrorCode(error: OperationError, era: 'modern' | 'legacy', method: string) {
  switch (error.kind) {
    case 'not-found':
      // Legacy revisions had their own code for a missing resource; 2026-07-28 retired it.
      return era === 'legacy' && method.startsWith('resources/')
        ? ErrorCode.LegacyResourceNotFound
        : ErrorCode.InvalidParams;
    case 'invalid':
      return ErrorCode.InvalidParams;
    case 'unsupported':
      // The server does not offer what the request needs: as if the method were absent.
      return ErrorCode.MethodNotFound;
  }
}
