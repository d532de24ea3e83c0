import type { InputRequest } from '@twofold/protocol/experimental';
import type { InputRequiredOutcome } from '../../registry/types';

/**
 * Thrown by a host-format adapter when a tool needs input (an MCP `input_required` round) that no
 * resolver answered. It carries everything needed to finish the call later: answer
 * `inputRequests` and call the same tool again with
 * `tool.invoke(args, { signal, resume: { inputResponses, state } })` (or pass `resume` to the
 * adapter's runner). Host formats such as the AI SDK turn a thrown error into a tool error the
 * model sees; the host reads this one from the step's error part.
 *
 * @experimental
 */
export class ToolInputRequiredError extends Error {
  /** Stable code, usable where `instanceof` is not (another copy of the package). */
  readonly code = 'TOOL_INPUT_REQUIRED' as const;
  /** The host tool name. */
  readonly tool: string;
  /** The arguments of the call that needs input. */
  readonly args: Record<string, unknown>;
  /** The requests to answer, keyed like the `inputResponses` to send back. */
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** Opaque, JSON-serialisable; hand it back unchanged with the answers. */
  readonly state: unknown;

  constructor(tool: string, args: Record<string, unknown>, outcome: InputRequiredOutcome) {
    const methods = Object.values(outcome.inputRequests).map((request) => request.method);
    super(
      `tool "${tool}" needs input (${methods.join(', ') || 'no requests'}) and no resolver answered it`,
    );
    this.name = 'ToolInputRequiredError';
    this.tool = tool;
    this.args = args;
    this.inputRequests = outcome.inputRequests;
    this.state = outcome.state;
  }
}

/**
 * Whether `error` is a `ToolInputRequiredError` (also from another copy of this package).
 *
 * @experimental
 */
export function isToolInputRequiredError(error: unknown): error is ToolInputRequiredError {
  return (
    error instanceof ToolInputRequiredError ||
    (error instanceof Error && (error as { code?: unknown }).code === 'TOOL_INPUT_REQUIRED')
  );
}
