// `@twofold/server/stdio` is deprecated for one minor release: it must keep giving what it gave,
// the very values of `@twofold/server/node`.
import { expect, it } from 'vitest';
import * as node from '../src/node';
import * as stdio from '../src/stdio';

it('the deprecated stdio entry re-exports serveStdio of the node entry', () => {
  expect(Object.keys(stdio)).toEqual(['serveStdio']);
  const fromNode = new Map(Object.entries(node));
  for (const [name, value] of Object.entries(stdio)) expect(value, name).toBe(fromNode.get(name));
});
