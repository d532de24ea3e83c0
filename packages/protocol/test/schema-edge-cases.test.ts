/**
 * Where twofold's wire schemas and the official `schema.json` of each revision agree or
 * knowingly disagree on edge cases, pinned in one table. The conformance cases are in
 * `schema-crosscheck.test.ts` and `schema-negative.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { getWire } from '../src/registry';
import type { ProtocolVersion } from '../src/versions';
import { atLeast, type Json } from './fixtures/sample-parts';
import { specAvailable } from './spec-files';
import { MODERN, methodOf, REVISIONS, spec, wireIssues } from './support/spec-validator';

// ---------------------------------------------------------------------------------------------
// Edge cases, pinned as they are today: each row states what twofold and schema.json say about
// one input, whether they agree (a regression guard) or knowingly disagree (the comment says
// why). A row that starts failing means one side changed: decide, then update the row.

type Verdict = 'accepts' | 'rejects';
interface EdgeCase {
  what: string;
  revs: readonly ProtocolVersion[];
  /** What twofold and schema.json say today. */
  twofold: Verdict;
  schema: Verdict;
  method: string;
  part: 'params' | 'result';
  value: (rev: ProtocolVersion) => Json;
  /** The schema.json definition to check; by default the method's params or result one. */
  definition?: string;
}

const LEGACY = ['2025-11-25', '2025-06-18', '2024-11-05'] as const;
const modernOnly = (rev: ProtocolVersion, fields: Json) => (rev === MODERN ? fields : {});
const legacyTool = (inputSchema: Json) => ({ tools: [{ name: 't', inputSchema }] });

const disagreements: EdgeCase[] = [
  {
    // twofold checks none of the JSON Schema formats `uri`, `uri-template`, `byte`.
    what: 'resources/read result with a non-URI uri',
    revs: REVISIONS,
    twofold: 'accepts',
    schema: 'rejects',
    method: 'resources/read',
    part: 'result',
    value: (rev) => ({
      ...modernOnly(rev, { resultType: 'complete', ttlMs: 0, cacheScope: 'private' }),
      contents: [{ uri: 'not a uri', text: 'x' }],
    }),
  },
  {
    what: 'image block whose data is not base64',
    revs: REVISIONS,
    twofold: 'accepts',
    schema: 'rejects',
    method: 'tools/call',
    part: 'result',
    value: (rev) => ({
      ...modernOnly(rev, { resultType: 'complete' }),
      content: [{ type: 'image', data: '!!', mimeType: 'image/png' }],
    }),
  },
  {
    // Legacy schema.json types an inputSchema's `required` and `properties`; 2026 does not.
    what: 'tool inputSchema with required: "city"',
    revs: LEGACY,
    twofold: 'rejects',
    schema: 'rejects',
    method: 'tools/list',
    part: 'result',
    value: () => legacyTool({ type: 'object', required: 'city' }),
  },
  {
    what: 'tool inputSchema with a boolean property schema',
    revs: LEGACY,
    twofold: 'rejects',
    schema: 'rejects',
    method: 'tools/list',
    part: 'result',
    value: () => legacyTool({ type: 'object', properties: { city: true } }),
  },
  {
    // schema.json types answers as string | integer | boolean (| string[] from 2025-11-25),
    // although a form may ask for `type: "number"`.
    what: 'elicitation answer 1.5 for a number field',
    revs: ['2026-07-28', '2025-11-25', '2025-06-18'],
    twofold: 'accepts',
    schema: 'rejects',
    method: 'elicitation/create',
    part: 'result',
    value: () => ({ action: 'accept', content: { weight: 1.5 } }),
  },
  {
    what: 'elicitation answer that is a string array (multi-select came in 2025-11-25)',
    revs: ['2025-06-18'],
    twofold: 'rejects',
    schema: 'rejects',
    method: 'elicitation/create',
    part: 'result',
    value: () => ({ action: 'accept', content: { tags: ['a'] } }),
  },
  {
    // "Must not exceed 100 items" is only prose before 2026 (2026 adds maxItems: 100).
    what: 'completion with 101 values',
    revs: LEGACY,
    twofold: 'accepts',
    schema: 'accepts',
    method: 'completion/complete',
    part: 'result',
    value: () => ({ completion: { values: Array.from({ length: 101 }, (_, i) => `v${i}`) } }),
  },
  {
    what: 'initialize with capabilities.tasks.list: true',
    revs: ['2025-11-25'],
    twofold: 'accepts',
    schema: 'rejects',
    method: 'initialize',
    part: 'params',
    value: (rev) => ({
      protocolVersion: rev,
      capabilities: { tasks: { list: true } },
      clientInfo: { name: 'c', version: '1' },
    }),
  },
  {
    // 2026's JSONValue is string | integer | boolean | object | array: no fraction, no null.
    what: 'sampling metadata { score: 0.5 }',
    revs: [MODERN],
    twofold: 'accepts',
    schema: 'rejects',
    method: 'sampling/createMessage',
    part: 'params',
    value: () => ({ messages: [], maxTokens: 1, metadata: { score: 0.5 } }),
  },
  {
    // twofold reads cache hints leniently (missing = stale at once), see `cacheHints`.
    what: 'tools/list result without ttlMs/cacheScope',
    revs: [MODERN],
    twofold: 'accepts',
    schema: 'rejects',
    method: 'tools/list',
    part: 'result',
    value: () => ({ resultType: 'complete', tools: [] }),
  },
  {
    // twofold's core knows only complete / input_required; schema.json's InputRequiredResult
    // takes any string resultType, so `CallToolResultResponse` lets this through.
    what: 'tools/call result with resultType "task"',
    revs: [MODERN],
    twofold: 'rejects',
    schema: 'accepts',
    method: 'tools/call',
    part: 'result',
    value: () => ({ resultType: 'task', task: { taskId: 't' } }),
    definition: 'InputRequiredResult',
  },
];

const disagreementCases = disagreements.flatMap((d) =>
  d.revs.map(
    (rev) => [`${rev} ${d.what}: twofold ${d.twofold}, schema.json ${d.schema}`, rev, d] as const,
  ),
);

describe.skipIf(!specAvailable)('edge cases: twofold and schema.json verdicts', () => {
  it.each(disagreementCases)('%s', (_, rev, d) => {
    const m = methodOf(getWire(rev), d.method);
    const value = d.value(rev);
    const zod = (d.part === 'params' ? m.params : m.result)?.safeParse(value).success;
    const def =
      d.definition ?? (d.part === 'params' ? `${m.definition}Params` : m.resultDefinition);
    const errors = spec(rev).errors(def ?? '?', value);
    expect(zod ? 'accepts' : 'rejects', 'twofold').toBe(d.twofold);
    expect(errors.length ? 'rejects' : 'accepts', `schema.json ${errors.join('; ')}`).toBe(
      d.schema,
    );
  });

  it.each(REVISIONS)('%s: an error response with id: null', (rev) => {
    const response = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    const envelope = atLeast(rev, '2025-11-25') ? 'JSONRPCErrorResponse' : 'JSONRPCError';
    // twofold accepts it (plain JSON-RPC peers send null); no schema.json allows a null id.
    expect(wireIssues(getWire(rev).definitions[envelope], response)).toEqual([]);
    expect(spec(rev).errors(envelope, response)).not.toEqual([]);
  });
});
