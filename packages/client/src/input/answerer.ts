/**
 * Answers the server's requests for input (elicitation, sampling, roots) with the host's
 * handlers. Modern `input_required` rounds and legacy server-to-client requests both use it.
 */
import {
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type ElicitRequestParams,
  ErrorCode,
  ProtocolError,
} from '@twofold/protocol/experimental';
import type { InputContext, InputHandlers } from '../types';
import { messageOf } from '../util';

const ALL_MODES: readonly ('form' | 'url')[] = ['form', 'url'];

/**
 * The host's input handlers behind one interface, plus the client capabilities they declare.
 */
export class InputAnswerer {
  /** `elicitation` (with the declared modes), `sampling` and `roots`, per handler present. */
  readonly capabilities: ClientCapabilities;
  readonly #handlers: InputHandlers;
  readonly #modes: ReadonlySet<'form' | 'url'>;

  constructor(handlers: InputHandlers | undefined) {
    this.#handlers = handlers ?? {};
    this.#modes = new Set(this.#handlers.elicitationModes ?? ALL_MODES);
    const capabilities: ClientCapabilities = {};
    if (this.#handlers.elicitation && this.#modes.size > 0) {
      capabilities.elicitation = Object.fromEntries([...this.#modes].map((mode) => [mode, {}]));
    }
    if (this.#handlers.sampling) capabilities.sampling = {};
    if (this.#handlers.roots) capabilities.roots = {};
    this.capabilities = capabilities;
  }

  /**
   * The answer to one input request. No handler for `method` (or an undeclared elicitation
   * mode): `ProtocolError` -32601 (-32602 for the mode). An elicitation handler that throws
   * declines; a sampling or roots handler that throws gives -32603 with its message (a
   * `ProtocolError` it throws is kept as it is).
   */
  async answer(
    method: string,
    params: Record<string, unknown> | undefined,
    context: InputContext,
  ): Promise<Record<string, unknown>> {
    const { elicitation, sampling, roots } = this.#handlers;
    if (method === 'elicitation/create' && elicitation) {
      const mode = params?.mode === undefined ? 'form' : params.mode;
      if (mode !== 'form' && mode !== 'url') {
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          `Unknown elicitation mode ${String(mode)}`,
        );
      }
      if (!this.#modes.has(mode)) {
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          `Elicitation mode ${mode} is not declared`,
        );
      }
      try {
        return toRecord(await elicitation(params as ElicitRequestParams, context));
      } catch {
        // The user could not be asked: the spec's way to say no.
        return { action: 'decline' };
      }
    }
    if (method === 'sampling/createMessage' && sampling) {
      return guarded(() => sampling((params ?? {}) as CreateMessageRequestParams, context));
    }
    if (method === 'roots/list' && roots) return guarded(() => roots(context));
    throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}

async function guarded(run: () => Promise<object>): Promise<Record<string, unknown>> {
  try {
    return toRecord(await run());
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    const message = messageOf(error);
    throw new ProtocolError(ErrorCode.InternalError, message || 'Input handler failed');
  }
}

function toRecord(value: object): Record<string, unknown> {
  return value as Record<string, unknown>;
}
