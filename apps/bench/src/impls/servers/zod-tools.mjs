// The benchmark tools with zod input schemas, for the servers that validate (twofold and both
// official SDKs): each gets the same shapes and the same answers.
import { z } from 'zod';
import { answer, ECHO, STATS, toolHeads } from './common.mjs';

/** Zod raw shape of a tool's input. */
function shapeOf(name) {
  if (name === ECHO) return { text: z.string().describe('The text to answer') };
  if (name === STATS) return { gc: z.boolean().optional() };
  return {
    query: z.string().describe('What to look for'),
    limit: z.number().int().min(1).max(100).optional(),
  };
}

/**
 * `count` tools: name, description, the input as a zod raw shape and as a `z.object` of it (the
 * SDKs take one or the other), and a handler from arguments to text.
 */
export function toolSpecs(count) {
  return toolHeads(count).map((head) => {
    const shape = shapeOf(head.name);
    return { ...head, shape, schema: z.object(shape), handler: (args) => answer(head.name, args) };
  });
}
