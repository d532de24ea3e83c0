/**
 * Methods an extension adds to the protocol (`skills/list`, …). The method tables know only the
 * core methods, so the dispatchers ask the server for an extension method before they answer
 * -32601; each era then adapts the outcome to its wire like any feature result.
 */
import { ErrorCode, ProtocolError, readRequestEnvelope } from '@twofold/protocol/experimental';
import type { z } from 'zod';
import type { CachePolicy } from '../api';

/**
 * One method an extension serves: its params schema (a mismatch is -32602) and its handler.
 *
 * @experimental
 */
export interface ExtensionMethod {
  readonly params: z.ZodType<Record<string, unknown>>;
  /** The result, with the modern cache hints when the result is cacheable. */
  call(
    params: Record<string, unknown>,
  ): Promise<{ result: Record<string, unknown>; cache?: CachePolicy | undefined }>;
}

/**
 * Validates an extension request and runs it. A modern request must carry the `_meta` envelope
 * (`modern: true`), as every modern request does.
 */
export async function callExtensionMethod(
  extension: ExtensionMethod,
  params: Record<string, unknown> | undefined,
  options: { modern: boolean },
): Promise<{ result: Record<string, unknown>; cache?: CachePolicy | undefined }> {
  const parsed = extension.params.safeParse(params ?? {});
  if (!parsed.success) {
    throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${parsed.error.message}`);
  }
  if (options.modern) {
    const read = readRequestEnvelope(parsed.data);
    if (!read.ok) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Missing _meta keys: ${read.missing.join(', ')}`,
      );
    }
  }
  return extension.call(parsed.data);
}
