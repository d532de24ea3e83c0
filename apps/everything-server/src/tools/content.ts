/** Tools answering with each kind of content block, and one that fails on purpose. */
import type { McpServer } from '@twofold/server/experimental';
import { PNG_BASE64, WAV_BASE64 } from '../fixtures';

export function registerContentTools(server: McpServer): void {
  server.registerTool({
    name: 'test_simple_text',
    description: 'Answers with one text block',
    handler: () => 'This is a simple text response for testing.',
  });
  server.registerTool({
    name: 'test_image_content',
    description: 'Answers with one PNG image block',
    handler: () => [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }],
  });
  server.registerTool({
    name: 'test_audio_content',
    description: 'Answers with one WAV audio block',
    handler: () => [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }],
  });
  server.registerTool({
    name: 'test_embedded_resource',
    description: 'Answers with an embedded text resource',
    handler: () => [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  });
  server.registerTool({
    name: 'test_multiple_content_types',
    description: 'Answers with text, an image and an embedded resource',
    handler: () => [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  });
  server.registerTool({
    name: 'test_error_handling',
    description: 'Always throws, so the client sees an isError result',
    handler: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  });
}
