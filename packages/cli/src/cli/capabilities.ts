/**
 * Asking a server for something it does not declare: a server without the capability answers
 * "Method not found" (-32601), which says nothing to a person; the message says what is missing.
 * The request is still sent, so a server that answers without declaring keeps working.
 */
import type { McpClient } from '@twofold/client/experimental';
import { ProtocolError, type ServerCapabilities } from '@twofold/protocol/experimental';
import { CliError, EXIT } from './exit-codes';

const METHOD_NOT_FOUND = -32601;

/** What a capability offers, as a message names it. */
const OFFERS = {
  tools: 'tools',
  resources: 'resources',
  prompts: 'prompts',
  completions: 'completions',
} as const satisfies Partial<Record<keyof ServerCapabilities, string>>;

/**
 * Runs `request`; a -32601 from a server that does not declare `capability` becomes "this server
 * declares no …" (exit 69: it does not offer what was asked).
 */
export async function declared<T>(
  client: McpClient,
  capability: keyof typeof OFFERS,
  request: () => Promise<T>,
  what: string = OFFERS[capability],
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (
      error instanceof ProtocolError &&
      error.code === METHOD_NOT_FOUND &&
      client.serverCapabilities[capability] === undefined
    ) {
      throw new CliError(EXIT.unavailable, `this server declares no ${what}`, { cause: error });
    }
    throw error;
  }
}
