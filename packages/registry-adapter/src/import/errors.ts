/**
 * Errors of the import side: a tool name two servers want under the `error` policy, a tool whose
 * server is gone, and an input-required exchange that does not end.
 */

/**
 * Two servers offer the same tool name and the conflict policy is `error`: the server being
 * added is refused, and nothing of it is registered.
 *
 * @experimental
 */
export class ToolNameConflictError extends Error {
  /** The host name both want. */
  readonly toolName: string;
  /** The servers offering it, in provider order (the refused one last). */
  readonly servers: readonly string[];

  constructor(toolName: string, servers: readonly string[], options?: { cause?: unknown }) {
    const list = servers.map((server) => JSON.stringify(server)).join(' and ');
    super(`tool name ${JSON.stringify(toolName)} is offered by servers ${list}`, options);
    this.name = 'ToolNameConflictError';
    this.toolName = toolName;
    this.servers = servers;
  }
}

/**
 * An imported tool was called after its server was detached (disconnected, removed or closed).
 *
 * @experimental
 */
export class ToolUnavailableError extends Error {
  /** The host name of the tool. */
  readonly toolName: string;
  readonly server: string;

  constructor(toolName: string, server: string, reason: string) {
    super(
      `tool ${JSON.stringify(toolName)} is unavailable: server ${JSON.stringify(server)} ${reason}`,
    );
    this.name = 'ToolUnavailableError';
    this.toolName = toolName;
    this.server = server;
  }
}

/**
 * A tool kept asking for input: more `input_required` rounds than the bound allows.
 *
 * @experimental
 */
export class InputRoundsExceededError extends Error {
  readonly toolName: string;
  readonly rounds: number;

  constructor(toolName: string, rounds: number) {
    super(`tool ${JSON.stringify(toolName)} still asked for input after ${rounds} answered rounds`);
    this.name = 'InputRoundsExceededError';
    this.toolName = toolName;
    this.rounds = rounds;
  }
}
