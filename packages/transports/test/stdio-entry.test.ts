// `@twofold/transports/stdio` is the stdio part of `@twofold/transports/node` without the HTTP
// server core: it must give the very values of `@twofold/transports/node`.
import { expect, it } from 'vitest';
import * as node from '../src/node';
import * as stdio from '../src/stdio';

it('the stdio entry gives the stdio values of the node entry', () => {
  expect(Object.keys(stdio).sort()).toEqual([
    'DEFAULT_INHERITED_ENV_VARS',
    'DEFAULT_INPUT_END_GRACE_MS',
    'DEFAULT_INVALID_LINE_PREVIEW_CHARS',
    'DEFAULT_MAX_MESSAGE_BYTES',
    'DEFAULT_OUTPUT_HIGH_WATER_MARK_BYTES',
    'DEFAULT_STDERR_TAIL_BYTES',
    'NdjsonDecoder',
    'StdioClientTransport',
    'StdioServerTransport',
    'encodeNdjsonLine',
  ]);
  const fromNode = new Map(Object.entries(node));
  for (const [name, value] of Object.entries(stdio)) expect(value, name).toBe(fromNode.get(name));
});
