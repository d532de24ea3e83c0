/**
 * The client capability an input request (elicitation, sampling, roots) needs. A server must
 * never ask for a kind of input the client did not declare, in either era.
 */
import type { ClientCapabilities, InputRequest } from '@twofold/protocol/experimental';

/** The capabilities missing for `request`, or `undefined` when the client declared them. */
export function missingCapabilityFor(
  request: InputRequest,
  declared: ClientCapabilities,
): ClientCapabilities | undefined {
  switch (request.method) {
    case 'elicitation/create': {
      // An empty `elicitation` object means form mode only.
      const url = request.params?.mode === 'url';
      const elicitation = declared.elicitation as Record<string, unknown> | undefined;
      if (elicitation === undefined) return { elicitation: url ? { url: {} } : {} };
      return url && elicitation.url === undefined ? { elicitation: { url: {} } } : undefined;
    }
    case 'sampling/createMessage': {
      const tools = request.params?.tools !== undefined;
      const sampling = declared.sampling as Record<string, unknown> | undefined;
      if (sampling === undefined) return { sampling: tools ? { tools: {} } : {} };
      return tools && sampling.tools === undefined ? { sampling: { tools: {} } } : undefined;
    }
    case 'roots/list':
      return declared.roots === undefined ? { roots: {} } : undefined;
  }
}
