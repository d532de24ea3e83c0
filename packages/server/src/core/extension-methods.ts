/**
 * Methods an extension adds to the protocol (`skills/list`, …). The method tables know only the
 * core methods, so the dispatchers ask the server for an extension method before they answer
 * -32601; each era then adapts the outcome to its wire like any feature result.
 */
import {
  ErrorCode,
  ProtocolError,
  type RequestEnvelope,
  readRequestEnvelope,
  summarize,
  type Validator,
} from '@twofold/protocol/experimental';
import type { CachePolicy } from '../api';

/**
 * One method an extension serves: its params schema (a mismatch is -32602) and its handler.
 *
 * @experimental
 */
export interface ExtensionMethod {
  /** A compiled wire validator or any schema with zod's `safeParse` (a zod schema is one). */
  readonly params: Validator<Record<string, unknown>>;
  /** The result, with the modern cache hints when the result is cacheable. */
  call(
    params: Record<string, unknown>,
  ): Promise<{ result: Record<string, unknown>; cache?: CachePolicy | undefined }>;
}

/** The params of an extension request, validated (-32602 when they do not fit). */
export function checkExtensionParams(
  schema: Validator<Record<string, unknown>>,
  params: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issues = summarize(parsed.error);
  throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${issues[0]?.message ?? ''}`, {
    issues,
  });
}

/** The `_meta` envelope every modern request carries (-32602 when keys are missing). */
export function requireEnvelope(params: Record<string, unknown> | undefined): RequestEnvelope {
  const read = readRequestEnvelope(params);
  if (read.ok) return read.envelope;
  throw new ProtocolError(
    ErrorCode.InvalidParams,
    `Missing _meta keys: ${read.missing.join(', ')}`,
  );
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
  const parsed = checkExtensionParams(extension.params, params);
  if (options.modern) requireEnvelope(parsed);
  return extension.call(parsed);
}
