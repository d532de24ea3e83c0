/**
 * Newline-delimited JSON framing, outbound side. `JSON.stringify` escapes every control
 * character inside strings, so a serialised message never contains a raw newline and one line
 * is always exactly one message.
 */
import type { JsonRpcMessage } from '@twofold/protocol/experimental';

/**
 * Serialises one message as one line of newline-delimited JSON (the stdio wire format).
 *
 * @experimental
 */
export function encodeNdjsonLine(message: JsonRpcMessage): string {
  return `${JSON.stringify(message)}\n`;
}
