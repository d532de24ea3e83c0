/** The prompts the conformance suite gets, including one that needs input first. */
import { InputRequired, type McpServer } from '@twofold/server/experimental';
import { PNG_BASE64 } from './fixtures';
import { elicited } from './tools/answers';
import { askFor } from './tools/input-required';

const ARG_SUGGESTIONS = ['paris', 'party', 'test', 'testValue1', 'testValue2'];

export function registerPrompts(server: McpServer): void {
  server.registerPrompt({
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A simple prompt without arguments',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ],
    }),
  });
  server.registerPrompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    complete: {
      arg1: (value) => ARG_SUGGESTIONS.filter((word) => word.startsWith(value)),
      arg2: (value) => ARG_SUGGESTIONS.filter((word) => word.startsWith(value)),
    },
    get: ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
          },
        },
      ],
    }),
  });
  server.registerPrompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    arguments: [
      { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
    ],
    get: ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri ?? 'test://example-resource',
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        {
          role: 'user',
          content: { type: 'text', text: 'Please process the embedded resource above.' },
        },
      ],
    }),
  });
  server.registerPrompt({
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes image content',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  });
  server.registerPrompt({
    name: 'test_input_required_result_prompt',
    description: 'A prompt that asks the user for context before it is built',
    get: (_args, { inputResponses }) => {
      const context = elicited(inputResponses, 'user_context', 'context');
      if (context === undefined) {
        return new InputRequired({
          user_context: askFor('What context should the prompt use?', 'context'),
        });
      }
      return {
        messages: [
          { role: 'user', content: { type: 'text', text: `Prompt with context: ${context}` } },
        ],
      };
    },
  });
}
