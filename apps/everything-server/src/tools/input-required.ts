/**
 * Multi round-trip tools (2026-07-28 `input_required` results): each asks for elicitation,
 * sampling or roots by returning `InputRequired`, and finishes once the retry carries valid
 * answers. The same handlers serve legacy sessions, where twofold sends real requests instead.
 */
import type { InputRequest } from '@twofold/protocol/experimental';
import { InputRequired, type McpServer } from '@twofold/server/experimental';
import { elicited, rootUris, sampledText } from './answers';

/** An elicitation form asking for one string (or boolean) field. */
export function askFor(message: string, field: string, type = 'string'): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      message,
      requestedSchema: {
        type: 'object',
        properties: { [field]: { type } },
        required: [field],
      },
    },
  };
}

function sample(text: string, maxTokens: number): InputRequest {
  return {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
  };
}

const LIST_ROOTS: InputRequest = { method: 'roots/list', params: {} };

export function registerInputRequiredTools(server: McpServer): void {
  server.registerTool({
    name: 'test_input_required_result_elicitation',
    description: 'Asks the user for their name, then greets them',
    handler: (_args, { inputResponses }) => {
      const name = elicited(inputResponses, 'user_name', 'name');
      if (name === undefined) {
        return new InputRequired({ user_name: askFor('What is your name?', 'name') });
      }
      return `Hello, ${name}!`;
    },
  });
  server.registerTool({
    name: 'test_input_required_result_sampling',
    description: 'Asks the client model a question and returns its answer',
    handler: (_args, { inputResponses }) => {
      const answer = sampledText(inputResponses, 'capital_question');
      if (answer === undefined) {
        return new InputRequired({
          capital_question: sample('What is the capital of France?', 100),
        });
      }
      return `Sampling answer: ${answer}`;
    },
  });
  server.registerTool({
    name: 'test_input_required_result_list_roots',
    description: "Asks for the client's roots and lists them",
    handler: (_args, { inputResponses }) => {
      const roots = rootUris(inputResponses, 'client_roots');
      if (roots === undefined) return new InputRequired({ client_roots: LIST_ROOTS });
      return `Client roots: ${roots.join(', ')}`;
    },
  });
  server.registerTool({
    name: 'test_input_required_result_request_state',
    description: 'Asks for a confirmation, carrying signed request state across the round trip',
    handler: (_args, { inputResponses }) => {
      // twofold checks the echoed requestState (signature, expiry, binding) before this runs.
      const ok = elicited(inputResponses, 'confirm', 'ok');
      if (ok === undefined) {
        return new InputRequired(
          { confirm: askFor('Please confirm', 'ok', 'boolean') },
          { round: 1 },
        );
      }
      return `state-ok: confirmed=${ok}`;
    },
  });
  server.registerTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks for a name, a sampled greeting and the roots in one round',
    handler: (_args, { inputResponses }) => {
      const name = elicited(inputResponses, 'user_name', 'name');
      const greeting = sampledText(inputResponses, 'greeting');
      const roots = rootUris(inputResponses, 'client_roots');
      if (name === undefined || greeting === undefined || roots === undefined) {
        return new InputRequired(
          {
            user_name: askFor('What is your name?', 'name'),
            greeting: sample('Generate a greeting', 50),
            client_roots: LIST_ROOTS,
          },
          { round: 1 },
        );
      }
      return `${greeting} ${name} (roots: ${roots.join(', ')})`;
    },
  });
  server.registerTool({
    name: 'test_input_required_result_multi_round',
    description: 'Asks two questions in two rounds',
    handler: (_args, { inputResponses }) => {
      const color = elicited(inputResponses, 'step2', 'color');
      if (color !== undefined) return `Favorite color: ${color}`;
      const name = elicited(inputResponses, 'step1', 'name');
      if (name === undefined) {
        return new InputRequired(
          { step1: askFor('Step 1: What is your name?', 'name') },
          { step: 1 },
        );
      }
      return new InputRequired(
        { step2: askFor('Step 2: What is your favorite color?', 'color') },
        { step: 2, name },
      );
    },
  });
  server.registerTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Carries signed request state; a tampered one is rejected by twofold',
    handler: (_args, { inputResponses }) => {
      const name = elicited(inputResponses, 'user_name', 'name');
      if (name === undefined) {
        return new InputRequired({ user_name: askFor('What is your name?', 'name') }, { round: 1 });
      }
      return `Hello, ${name}!`;
    },
  });
  server.registerTool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for the kinds of input the client declared',
    handler: (_args, { inputResponses, clientCapabilities }) => {
      const wanted: Record<string, InputRequest> = {};
      if (clientCapabilities.elicitation !== undefined) {
        wanted.user_name = askFor('What is your name?', 'name');
      }
      if (clientCapabilities.sampling !== undefined) {
        wanted.greeting = sample('Generate a greeting', 50);
      }
      const missing = Object.entries(wanted).filter(([key]) => inputResponses?.[key] === undefined);
      if (missing.length > 0) return new InputRequired(Object.fromEntries(missing));
      return `Asked for: ${Object.keys(wanted).join(', ') || 'nothing'}`;
    },
  });
  server.registerTool({
    name: 'test_missing_capability',
    description: 'Needs sampling; a client that did not declare it gets -32021',
    handler: (_args, { inputResponses }) => {
      const answer = sampledText(inputResponses, 'probe');
      if (answer === undefined) return new InputRequired({ probe: sample('Say hi', 10) });
      return 'Success';
    },
  });
}
