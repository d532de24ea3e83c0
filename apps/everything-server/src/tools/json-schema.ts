/** A tool whose input schema is raw JSON Schema 2020-12, to show it reaches `tools/list` intact. */
import type { McpServer } from '@twofold/server/experimental';

const CONTACT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword; never awaited
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

export function registerJsonSchemaTool(server: McpServer): void {
  server.registerTool({
    name: 'json_schema_2020_12_tool',
    description: 'Takes contact details described with JSON Schema 2020-12 keywords',
    inputSchema: CONTACT_SCHEMA,
    handler: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  });
}
