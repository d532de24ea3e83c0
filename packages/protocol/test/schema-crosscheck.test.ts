/**
 * Conformance of twofold's wire schemas with the official `schema.json` of each revision
 * (`../shared/spec/README.md`, "How tests can use them", items 2 to 5):
 *
 * - the methods a revision's schema.json defines are exactly the methods twofold knows;
 * - every message twofold builds (requests, notifications, results, errors) parses with
 *   twofold's own schema AND validates against schema.json (method definition + envelope);
 * - negative vectors fail both; cross-revision messages behave as asserted;
 * - the places where the two knowingly disagree are pinned in one table at the end.
 *
 * Samples: `fixtures/method-samples.ts` (one table, written as a function of the revision).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  createErrorResponse,
  createNotification,
  createRequest,
  createResultResponse,
} from '../src/jsonrpc';
import { buildRequestMeta, protocolVersionOf } from '../src/meta';
import { getWire, type MethodSchema, parseParams, type Wire } from '../src/registry';
import type { Implementation } from '../src/types';
import { type ProtocolVersion, SUPPORTED_VERSIONS } from '../src/versions';
import {
  atLeast,
  clientCapabilities,
  elicitAccept,
  elicitForm,
  errorSamples,
  implementation,
  type Json,
  LISTEN_ID,
  methodSamples,
} from './fixtures/method-samples';
import { readSchema, specAvailable } from './spec-files';

const MODERN: ProtocolVersion = '2026-07-28';
const REVISIONS = SUPPORTED_VERSIONS;

// ---------------------------------------------------------------------------------------------
// schema.json: one Ajv instance per revision, one compiled validator per definition, built on
// first use (so nothing is read while tests are only being collected).

interface SpecDefinition {
  properties?: Record<string, { const?: unknown; anyOf?: { $ref?: string }[] }>;
  required?: string[];
}
interface SpecValidator {
  readonly defs: Record<string, SpecDefinition>;
  /** Ajv errors of `value` against definition `name`; empty when valid. */
  errors(name: string, value: unknown): string[];
}

const validators = new Map<ProtocolVersion, SpecValidator>();

function spec(rev: ProtocolVersion): SpecValidator {
  const cached = validators.get(rev);
  if (cached) return cached;
  const schema = readSchema(rev);
  // 2026-07-28 and 2025-11-25 are JSON Schema 2020-12 ($defs); the two older are draft-07.
  const draft2020 = '$defs' in schema;
  const ajv = draft2020
    ? new Ajv2020({ strict: false, allErrors: true })
    : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const id = `urn:mcp:${rev}`;
  ajv.addSchema({ ...schema, $id: id });
  const section = draft2020 ? '$defs' : 'definitions';
  const defs = schema[section] as Record<string, SpecDefinition>;
  const compiled = new Map<string, ValidateFunction>();
  const validator: SpecValidator = {
    defs,
    errors(name, value) {
      if (!(name in defs)) return [`schema.json ${rev} has no definition ${name}`];
      let validate = compiled.get(name);
      if (!validate) {
        validate = ajv.compile({ $ref: `${id}#/${section}/${name}` });
        compiled.set(name, validate);
      }
      if (validate(value)) return [];
      return (validate.errors ?? []).map(
        (e) => `${name}${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
      );
    },
  };
  validators.set(rev, validator);
  return validator;
}

/** Zod issues as readable strings; empty when the value parses. */
function zodIssues(schema: z.ZodType | undefined, value: unknown): string[] {
  if (!schema) return ['twofold has no such schema'];
  const parsed = schema.safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.join('.') || '/'}: ${i.message}`);
}

// ---------------------------------------------------------------------------------------------
// Building messages as twofold's peers do.

function modernMeta(): Json {
  return buildRequestMeta({
    protocolVersion: MODERN,
    clientCapabilities: clientCapabilities(MODERN),
    clientInfo: implementation(MODERN, 'client') as unknown as Implementation,
    logLevel: 'info',
    progressToken: 'progress-1',
    trace: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
  });
}

const isInputRequest = (wire: Wire, method: string) => wire.inputRequests.has(method);

function methodOf(wire: Wire, method: string): MethodSchema {
  const m = wire.methods.get(method) ?? wire.inputRequests.get(method);
  if (!m) throw new Error(`${wire.version} has no ${method}`);
  return m;
}

/** The wire message: a 2026 input request is the bare `{ method, params }` (no jsonrpc, id). */
function buildMessage(wire: Wire, m: MethodSchema, params: Json | undefined): Json {
  if (isInputRequest(wire, m.method))
    return params === undefined ? { method: m.method } : { method: m.method, params };
  if (m.kind === 'notification') return { ...createNotification(m.method, params) };
  const full =
    wire.era === 'modern'
      ? { ...params, _meta: { ...modernMeta(), ...(params?._meta as Json | undefined) } }
      : params;
  return { ...createRequest(1, m.method, full) };
}

/** A modern complete result carries `resultType`, cache hints where cacheable, `serverInfo`. */
function completeResult(wire: Wire, m: MethodSchema, result: Json, override?: string): Json {
  if (wire.era !== 'modern' || isInputRequest(wire, m.method) || override) return result;
  return {
    ...result,
    resultType: 'complete',
    ...(m.cacheable ? { ttlMs: 300_000, cacheScope: 'public' } : {}),
    _meta: {
      'io.modelcontextprotocol/serverInfo': implementation(MODERN, 'server'),
      ...(result._meta as Json | undefined),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Case tables, built from twofold's registry and the fixtures only.

const messageCases = REVISIONS.flatMap((rev) =>
  Object.entries(methodSamples(rev)).flatMap(([method, sample]) =>
    Object.entries(sample.params).map(
      ([label, params]) => [`${rev} ${method} (${label})`, { rev, method, params }] as const,
    ),
  ),
);
const resultCases = REVISIONS.flatMap((rev) =>
  Object.entries(methodSamples(rev)).flatMap(([method, sample]) =>
    Object.entries(sample.results ?? {}).map(
      ([label, r]) => [`${rev} ${method} → ${label}`, { rev, method, ...r }] as const,
    ),
  ),
);
const errorCases = REVISIONS.flatMap((rev) =>
  errorSamples(rev).map((e) => [`${rev} ${e.label}`, { rev, ...e }] as const),
);

// ---------------------------------------------------------------------------------------------

describe.skipIf(!specAvailable)('method coverage: schema.json ↔ twofold registry', () => {
  it.each(REVISIONS)('%s: schema.json methods = twofold methods ∪ input requests', (rev) => {
    const wire = getWire(rev);
    const fromSpec = new Set<string>();
    for (const def of Object.values(spec(rev).defs)) {
      const method = def.properties?.method?.const;
      if (typeof method === 'string') fromSpec.add(method);
    }
    const known = [...wire.methods.keys(), ...wire.inputRequests.keys()];
    expect(known.sort()).toEqual([...fromSpec].sort());
    // Input requests exist only in 2026, where they are no JSON-RPC methods.
    expect(wire.inputRequests.size).toBe(rev === MODERN ? 3 : 0);
  });

  it.each(REVISIONS)('%s: definitions, kind, cacheable and MRTR agree with schema.json', (rev) => {
    const wire = getWire(rev);
    const { defs } = spec(rev);
    const wrong: string[] = [];
    for (const m of [...wire.methods.values(), ...wire.inputRequests.values()]) {
      const def = defs[m.definition];
      if (def?.properties?.method?.const !== m.method) wrong.push(`${m.method}: ${m.definition}`);
      if (m.resultDefinition && !(m.resultDefinition in defs))
        wrong.push(`${m.method}: result ${m.resultDefinition}`);
      // 2020-12 revisions put `id` on request definitions (not on notifications/input requests).
      const hasId = def?.properties !== undefined && 'id' in def.properties;
      if (
        rev >= '2025-11-25' &&
        hasId !== (m.kind === 'request' && !isInputRequest(wire, m.method))
      )
        wrong.push(`${m.method}: kind ${m.kind} but id ${hasId}`);
      const result = m.resultDefinition ? defs[m.resultDefinition] : undefined;
      if (m.cacheable !== (result?.required?.includes('ttlMs') ?? false))
        wrong.push(`${m.method}: cacheable ${m.cacheable}`);
      const anyOf = defs[`${m.resultDefinition}Response`]?.properties?.result?.anyOf ?? [];
      const mrtr = anyOf.some((o) => o.$ref?.endsWith('/InputRequiredResult'));
      if (m.inputRequired !== mrtr) wrong.push(`${m.method}: inputRequired ${m.inputRequired}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(REVISIONS)('%s: the fixtures have a sample for every method', (rev) => {
    const wire = getWire(rev);
    const known = [...wire.methods.keys(), ...wire.inputRequests.keys()].sort();
    expect(Object.keys(methodSamples(rev)).sort()).toEqual(known);
  });
});

describe.skipIf(!specAvailable)('requests and notifications twofold builds', () => {
  it.each(messageCases)('%s', (_, c) => {
    const wire = getWire(c.rev);
    const m = methodOf(wire, c.method);
    const message = buildMessage(wire, m, c.params);
    expect(zodIssues(m.params, message.params), 'twofold params').toEqual([]);
    expect(zodIssues(wire.definitions[m.definition], message), 'twofold message').toEqual([]);
    const v = spec(c.rev);
    expect(v.errors(m.definition, message), 'schema.json').toEqual([]);
    if (!isInputRequest(wire, c.method)) {
      const envelope = m.kind === 'request' ? 'JSONRPCRequest' : 'JSONRPCNotification';
      expect(v.errors(envelope, message), 'schema.json envelope').toEqual([]);
    }
  });
});

describe.skipIf(!specAvailable)('results twofold builds', () => {
  it.each(resultCases)('%s', (_, c) => {
    const wire = getWire(c.rev);
    const m = methodOf(wire, c.method);
    const result = completeResult(wire, m, c.result, c.definition);
    const definition = c.definition ?? m.resultDefinition ?? '?';
    const v = spec(c.rev);
    expect(zodIssues(m.result, result), 'twofold result').toEqual([]);
    expect(v.errors(definition, result), 'schema.json').toEqual([]);
    // 2026 input responses travel bare inside `inputResponses`, never as JSON-RPC responses.
    if (isInputRequest(wire, c.method)) return;
    const response = createResultResponse(7, result);
    if (c.rev === MODERN) {
      expect(result.resultType).toBe('complete');
      if (m.cacheable) expect(result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
      const wrapped = `${definition}Response`;
      if (wrapped in v.defs) expect(v.errors(wrapped, response), 'schema.json').toEqual([]);
      expect(zodIssues(wire.definitions[wrapped], response), 'twofold response').toEqual([]);
    }
    const envelope = atLeast(c.rev, '2025-11-25') ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
    expect(v.errors(envelope, response), 'schema.json envelope').toEqual([]);
    expect(zodIssues(wire.definitions[envelope], response), 'twofold envelope').toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

const MRTR_PARAMS: Record<string, Json> = {
  'tools/call': { name: 'get_weather', arguments: { city: 'Paris' } },
  'prompts/get': { name: 'code_review', arguments: { language: 'typescript' } },
  'resources/read': { uri: 'file:///project/README.md' },
};
const REQUEST_STATE = 'eyJzdGVwIjoxfQ.c2lnbmF0dXJl';

describe.skipIf(!specAvailable)('2026-07-28 multi round-trip requests', () => {
  const wire = getWire(MODERN);

  it.each(Object.keys(MRTR_PARAMS))('%s answers input_required', (method) => {
    const m = methodOf(wire, method);
    const result = {
      resultType: 'input_required',
      inputRequests: {
        profile: { method: 'elicitation/create', params: elicitForm(MODERN) },
        login: {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/login' },
        },
        workspace: { method: 'roots/list' },
      },
      requestState: REQUEST_STATE,
    };
    expect(zodIssues(m.result, result), 'twofold result').toEqual([]);
    expect(m.completeResult?.safeParse(result).success, 'a complete result').toBe(false);
    const response = createResultResponse('call-1', result);
    const wrapped = `${m.resultDefinition}Response`;
    expect(spec(MODERN).errors(wrapped, response), 'schema.json').toEqual([]);
    expect(spec(MODERN).errors('InputRequiredResult', result), 'schema.json').toEqual([]);
    expect(zodIssues(wire.definitions[wrapped], response), 'twofold response').toEqual([]);
  });

  it.each(Object.keys(MRTR_PARAMS))('%s retried with inputResponses + requestState', (method) => {
    const m = methodOf(wire, method);
    const params = {
      ...MRTR_PARAMS[method],
      inputResponses: {
        profile: elicitAccept(MODERN),
        login: { action: 'accept' },
        workspace: { roots: [{ uri: 'file:///home/ada/project', name: 'project' }] },
        summary: { role: 'assistant', content: { type: 'text', text: 'Ok' }, model: 'm-1' },
      },
      requestState: REQUEST_STATE,
      _meta: modernMeta(),
    };
    const retry = createRequest('call-2', method, params);
    expect(zodIssues(m.params, params), 'twofold params').toEqual([]);
    expect(spec(MODERN).errors(m.definition, retry), 'schema.json').toEqual([]);
    expect(spec(MODERN).errors('InputResponseRequestParams', params), 'schema.json').toEqual([]);
    expect(spec(MODERN).errors('JSONRPCRequest', retry), 'schema.json envelope').toEqual([]);
  });
});

describe.skipIf(!specAvailable)('error responses twofold builds', () => {
  it.each(errorCases)('%s', (_, c) => {
    const wire = getWire(c.rev);
    const response = createErrorResponse(c.id, c.error);
    for (const def of c.response) {
      expect(spec(c.rev).errors(def, response), 'schema.json').toEqual([]);
      // twofold defines the MCP error responses of 2026, not the legacy -32042 one.
      if (def in wire.definitions)
        expect(zodIssues(wire.definitions[def], response), `twofold ${def}`).toEqual([]);
    }
    if (c.errorObject) {
      expect(spec(c.rev).errors(c.errorObject, response.error), 'schema.json').toEqual([]);
      expect(zodIssues(wire.definitions[c.errorObject], response.error), 'twofold').toEqual([]);
    }
  });

  // A parse error has no readable id. From 2025-11-25 the response may omit it; the draft-07
  // revisions require `id` (and no revision allows `null`), so schema.json cannot express an
  // id-less error there. twofold accepts it in every revision (see the disagreements table).
  it.each(REVISIONS)('%s: an id-less -32700 response', (rev) => {
    const response = createErrorResponse(undefined, { code: -32700, message: 'Parse error' });
    expect(response).not.toHaveProperty('id');
    const envelope = atLeast(rev, '2025-11-25') ? 'JSONRPCErrorResponse' : 'JSONRPCError';
    expect(zodIssues(getWire(rev).definitions[envelope], response)).toEqual([]);
    const errors = spec(rev).errors(envelope, response);
    if (atLeast(rev, '2025-11-25')) expect(errors).toEqual([]);
    else expect(errors.join('\n')).toContain("must have required property 'id'");
  });
});

// ---------------------------------------------------------------------------------------------
// Negative vectors (README item 4): each must fail BOTH twofold's schema and schema.json.

describe.skipIf(!specAvailable)('2026-07-28 negative vectors fail both', () => {
  const wire = getWire(MODERN);
  const tools = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
  const hints = { ttlMs: 60_000, cacheScope: 'private' };
  const read = {
    resultType: 'complete',
    contents: [{ uri: 'file:///a.txt', text: 'a' }],
    ...hints,
  };
  const meta = { 'io.modelcontextprotocol/clientCapabilities': {}, progressToken: 'p' };
  const vectors: [string, { method: string; params?: Json; result?: Json }][] = [
    [
      'tools/list result without resultType',
      { method: 'tools/list', result: { ...tools, ...hints } },
    ],
    [
      'tools/list request without _meta protocolVersion',
      { method: 'tools/list', params: { _meta: meta } },
    ],
    ['tools/call request without _meta', { method: 'tools/call', params: { name: 'get_weather' } }],
    [
      'resources/read result with ttlMs: -1',
      { method: 'resources/read', result: { ...read, ttlMs: -1 } },
    ],
    [
      'resources/read result with cacheScope "shared"',
      { method: 'resources/read', result: { ...read, cacheScope: 'shared' } },
    ],
    [
      'tools/list result with input_required',
      { method: 'tools/list', result: { resultType: 'input_required', requestState: 's' } },
    ],
  ];

  it.each(vectors)('%s', (_, vector) => {
    const m = methodOf(wire, vector.method);
    if (vector.params) {
      expect(m.params.safeParse(vector.params).success, 'twofold').toBe(false);
      const request = createRequest(9, vector.method, vector.params);
      expect(spec(MODERN).errors(m.definition, request), 'schema.json').not.toEqual([]);
    }
    if (vector.result) {
      expect(m.result?.safeParse(vector.result).success, 'twofold').toBe(false);
      // Checked against the bare result: `<X>ResultResponse` of an MRTR method also lets
      // through anything with a string resultType (its InputRequiredResult branch is open).
      const def = m.resultDefinition ?? '?';
      expect(spec(MODERN).errors(def, vector.result), 'schema.json').not.toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Cross-revision checks (README item 5).

describe.skipIf(!specAvailable)('cross-revision messages', () => {
  it('a 2026 tools/call retry is also a well-formed 2025-11-25 tools/call', () => {
    const params = {
      name: 'get_weather',
      arguments: { city: 'Paris' },
      inputResponses: { profile: elicitAccept(MODERN) },
      requestState: REQUEST_STATE,
      _meta: modernMeta(),
    };
    const request = createRequest(11, 'tools/call', params);
    // Both twofold's 2025-11-25 schema and schema.json keep objects open: the modern fields
    // (`inputResponses`, `requestState`, the reserved `_meta` keys) are unknown there but
    // allowed. A schema therefore cannot tell the eras apart; routing must read `_meta`.
    expect(zodIssues(getWire('2025-11-25').methods.get('tools/call')?.params, params)).toEqual([]);
    expect(spec('2025-11-25').errors('CallToolRequest', request)).toEqual([]);
    expect(protocolVersionOf(params)).toBe(MODERN);
  });

  it('a 2025-11-25 tools/call (no _meta envelope) is rejected by 2026-07-28', () => {
    const params = {
      name: 'get_weather',
      arguments: { city: 'Paris' },
      _meta: { progressToken: 1 },
    };
    const request = createRequest(12, 'tools/call', params);
    expect(getWire(MODERN).methods.get('tools/call')?.params.safeParse(params).success).toBe(false);
    expect(spec(MODERN).errors('CallToolRequest', request)).not.toEqual([]);
    expect(protocolVersionOf(params)).toBeUndefined();
  });

  it('a legacy initialize has no place in 2026-07-28', () => {
    const params = {
      protocolVersion: '2025-11-25',
      capabilities: clientCapabilities('2025-11-25'),
      clientInfo: implementation('2025-11-25', 'client'),
    };
    const request = createRequest(0, 'initialize', params);
    const wire = getWire(MODERN);
    expect(wire.methods.has('initialize')).toBe(false);
    expect(spec(MODERN).defs).not.toHaveProperty('InitializeRequest');
    const parsed = parseParams(wire, 'initialize', params);
    expect(parsed.ok ? 'accepted' : parsed.error.code).toBe(-32601);
    // Still a well-formed JSON-RPC request, but no 2026 client request.
    expect(spec(MODERN).errors('JSONRPCRequest', request)).toEqual([]);
    expect(spec(MODERN).errors('ClientRequest', request)).not.toEqual([]);
    expect(wire.definitions.ClientRequest?.safeParse(request).success).toBe(false);
    // And the legacy InitializeResult (no resultType) is no 2026 result.
    const result = {
      protocolVersion: '2025-11-25',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    };
    expect(spec(MODERN).errors('Result', result)).not.toEqual([]);
    expect(wire.definitions.Result?.safeParse(result).success).toBe(false);
  });

  it('the end of a listen stream names the listen request id', () => {
    const listen = methodSamples(MODERN)['subscriptions/listen']?.results?.['graceful end'];
    expect(listen?.result._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': LISTEN_ID });
  });
});

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
    expect(zodIssues(getWire(rev).definitions[envelope], response)).toEqual([]);
    expect(spec(rev).errors(envelope, response)).not.toEqual([]);
  });
});
