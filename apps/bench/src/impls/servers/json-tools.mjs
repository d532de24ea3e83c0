// The benchmark tools with JSON Schema inputs: the same shapes as `zod-tools.mjs` (the JSON
// Schema twofold derives from those zod schemas, written out), for a server that loads no zod.
import { answer, ECHO, STATS, toolHeads } from './common.mjs';

/** JSON Schema of a tool's input. */
function inputSchemaOf(name) {
  if (name === ECHO) {
    return {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to answer' } },
      required: ['text'],
    };
  }
  if (name === STATS) return { type: 'object', properties: { gc: { type: 'boolean' } } };
  return {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for' },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
    },
    required: ['query'],
  };
}

/** `count` tools: name, description, the input as JSON Schema, and a handler from arguments to text. */
export function jsonToolSpecs(count) {
  return toolHeads(count).map((head) => ({
    ...head,
    schema: inputSchemaOf(head.name),
    handler: (args) => answer(head.name, args),
  }));
}
