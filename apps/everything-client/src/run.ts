/**
 * What every scenario gets, and the one way scenarios connect: an `McpClient` on the HTTP
 * target the suite started, closed when the scenario's work is done.
 */
import { version } from '@twofold/client';
import { type EraChoice, McpClient, type McpClientOptions } from '@twofold/client/experimental';
import { type HttpServerOptions, httpServer } from '@twofold/client/node';

/** One run of the client: the server, the scenario's data and a log on stderr. */
export interface ScenarioRun {
  /** The MCP endpoint (the last command-line argument). */
  url: string;
  /** `MCP_CONFORMANCE_CONTEXT`, parsed (empty when the suite gives none). */
  context: Record<string, unknown>;
  era: EraChoice;
  log(line: string): void;
}

/** A scenario: resolves when it ran to the end, throws otherwise (the process exits 1). */
export type Scenario = (run: ScenarioRun) => Promise<void>;

/** Connects, runs `body`, and always closes the client. */
export async function withClient(
  run: ScenarioRun,
  options: Partial<McpClientOptions>,
  body: (client: McpClient) => Promise<void>,
  http: Omit<HttpServerOptions, 'url'> = {},
): Promise<void> {
  const client = await McpClient.connect(httpServer({ ...http, url: run.url }), {
    clientInfo: { name: 'twofold-everything-client', version },
    era: run.era,
    onWarning: (warning) => run.log(`warning (${warning.code}): ${warning.message}`),
    ...options,
  });
  run.log(`connected: ${client.era} ${client.protocolVersion} (${client.verdict.transport})`);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** Every item of an async iterable (the client's `iterate*` calls are bounded by page count). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The text blocks of a tool or prompt result, joined, for the log. */
export function textOf(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  return blocks
    .map((block: { type?: unknown; text?: unknown }) =>
      block.type === 'text' && typeof block.text === 'string'
        ? block.text
        : `[${String(block.type)}]`,
    )
    .join(' ');
}
