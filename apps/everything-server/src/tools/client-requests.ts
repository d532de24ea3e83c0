/**
 * Tools that need the client: sampling and elicitation. Each asks by returning `InputRequired`;
 * twofold sends legacy clients real server-to-client requests and calls the handler again with
 * the answers (modern clients get an `input_required` result instead).
 */
import type { InputRequest } from '@twofold/protocol/experimental';
import { InputRequired, type McpServer } from '@twofold/server/experimental';
import { z } from 'zod';

/** Asks once under `key`; with the answer in hand, `finish` builds the text result. */
function askThenAnswer(
  key: string,
  request: InputRequest,
  responses: Readonly<Record<string, unknown>> | undefined,
  finish: (answer: Record<string, unknown>) => string,
): string | InputRequired {
  const answer = responses?.[key];
  if (answer === undefined) return new InputRequired({ [key]: request });
  return finish(answer as Record<string, unknown>);
}

const describeElicitation = (answer: Record<string, unknown>) =>
  `action=${String(answer.action)}, content=${JSON.stringify(answer.content ?? {})}`;

const SEP1034_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

const TITLED = (prefix: string) => [
  { const: 'value1', title: `First ${prefix}` },
  { const: 'value2', title: `Second ${prefix}` },
  { const: 'value3', title: `Third ${prefix}` },
];

const SEP1330_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: {
      type: 'string',
      description: 'Select one option',
      enum: ['option1', 'option2', 'option3'],
    },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: TITLED('Option'),
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: { anyOf: TITLED('Choice') },
    },
  },
  required: [],
};

export function registerClientRequestTools(server: McpServer): void {
  server.registerTool({
    name: 'test_sampling',
    description: 'Asks the client for an LLM completion of the prompt',
    inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    handler: ({ prompt }, context) =>
      askThenAnswer(
        'sampling',
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
            maxTokens: 100,
          },
        },
        context.inputResponses,
        (answer) => {
          const content = answer.content as { text?: unknown } | undefined;
          return `LLM response: ${String(content?.text ?? 'No response')}`;
        },
      ),
  });
  server.registerTool({
    name: 'test_elicitation',
    description: 'Asks the user for a response through the client',
    inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
    handler: ({ message }, context) =>
      askThenAnswer(
        'elicitation',
        {
          method: 'elicitation/create',
          params: {
            message,
            requestedSchema: {
              type: 'object',
              properties: { response: { type: 'string', description: "User's response" } },
              required: ['response'],
            },
          },
        },
        context.inputResponses,
        (answer) => `User response: ${describeElicitation(answer)}`,
      ),
  });
  server.registerTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicits a form whose primitive fields all carry defaults (SEP-1034)',
    handler: (_args, context) =>
      askThenAnswer(
        'elicitation',
        {
          method: 'elicitation/create',
          params: {
            message: 'Please review and update the form fields with defaults',
            requestedSchema: SEP1034_SCHEMA,
          },
        },
        context.inputResponses,
        (answer) => `Elicitation completed: ${describeElicitation(answer)}`,
      ),
  });
  server.registerTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicits a form with every enum variant (SEP-1330)',
    handler: (_args, context) =>
      askThenAnswer(
        'elicitation',
        {
          method: 'elicitation/create',
          params: {
            message: 'Please select options from the enum fields',
            requestedSchema: SEP1330_SCHEMA,
          },
        },
        context.inputResponses,
        (answer) => `Elicitation completed: ${describeElicitation(answer)}`,
      ),
  });
}
