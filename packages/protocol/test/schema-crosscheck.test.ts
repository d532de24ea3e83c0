/**
 * Conformance of twofold's wire schemas with the official `schema.json` of each revision
 * (`../shared/spec/README.md`, "How tests can use them", items 2 to 5):
 *
 * - the methods a revision's schema.json defines are exactly the methods twofold knows;
 * - every message twofold builds (requests, notifications, results, errors) parses with
 *   twofold's own schema AND validates against schema.json (method definition + envelope);
 * - negative vectors fail both; cross-revision messages behave as asserted
 *   (`schema-negative.test.ts`);
 * - the places where the two knowingly disagree are pinned in one table
 *   (`schema-edge-cases.test.ts`).
 *
 * Samples: `fixtures/method-samples.ts` (one table, written as a function of the revision),
 * `fixtures/error-samples.ts`. Ajv and message builders: `support/spec-validator.ts`.
 */
import { describe, expect, it } from 'vitest';
import { createErrorResponse, createRequest, createResultResponse } from '../src/jsonrpc';
import { getWire } from '../src/registry';
import { errorSamples } from './fixtures/error-samples';
import { methodSamples } from './fixtures/method-samples';
import { atLeast, elicitAccept, elicitForm, type Json } from './fixtures/sample-parts';
import { specAvailable } from './spec-files';
import {
  buildMessage,
  completeResult,
  isInputRequest,
  MODERN,
  methodOf,
  modernMeta,
  REQUEST_STATE,
  REVISIONS,
  spec,
  wireIssues,
} from './support/spec-validator';

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
    expect(wireIssues(m.params, message.params), 'twofold params').toEqual([]);
    expect(wireIssues(wire.definitions[m.definition], message), 'twofold message').toEqual([]);
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
    expect(wireIssues(m.result, result), 'twofold result').toEqual([]);
    expect(v.errors(definition, result), 'schema.json').toEqual([]);
    // 2026 input responses travel bare inside `inputResponses`, never as JSON-RPC responses.
    if (isInputRequest(wire, c.method)) return;
    const response = createResultResponse(7, result);
    if (c.rev === MODERN) {
      expect(result.resultType).toBe('complete');
      if (m.cacheable) expect(result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
      const wrapped = `${definition}Response`;
      if (wrapped in v.defs) expect(v.errors(wrapped, response), 'schema.json').toEqual([]);
      expect(wireIssues(wire.definitions[wrapped], response), 'twofold response').toEqual([]);
    }
    const envelope = atLeast(c.rev, '2025-11-25') ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
    expect(v.errors(envelope, response), 'schema.json envelope').toEqual([]);
    expect(wireIssues(wire.definitions[envelope], response), 'twofold envelope').toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

const MRTR_PARAMS: Record<string, Json> = {
  'tools/call': { name: 'get_weather', arguments: { city: 'Paris' } },
  'prompts/get': { name: 'code_review', arguments: { language: 'typescript' } },
  'resources/read': { uri: 'file:///project/README.md' },
};

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
    expect(wireIssues(m.result, result), 'twofold result').toEqual([]);
    expect(m.completeResult?.safeParse(result).success, 'a complete result').toBe(false);
    const response = createResultResponse('call-1', result);
    const wrapped = `${m.resultDefinition}Response`;
    expect(spec(MODERN).errors(wrapped, response), 'schema.json').toEqual([]);
    expect(spec(MODERN).errors('InputRequiredResult', result), 'schema.json').toEqual([]);
    expect(wireIssues(wire.definitions[wrapped], response), 'twofold response').toEqual([]);
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
    expect(wireIssues(m.params, params), 'twofold params').toEqual([]);
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
        expect(wireIssues(wire.definitions[def], response), `twofold ${def}`).toEqual([]);
    }
    if (c.errorObject) {
      expect(spec(c.rev).errors(c.errorObject, response.error), 'schema.json').toEqual([]);
      expect(wireIssues(wire.definitions[c.errorObject], response.error), 'twofold').toEqual([]);
    }
  });

  // A parse error has no readable id. From 2025-11-25 the response may omit it; the draft-07
  // revisions require `id` (and no revision allows `null`), so schema.json cannot express an
  // id-less error there. twofold accepts it in every revision (see the disagreements table).
  it.each(REVISIONS)('%s: an id-less -32700 response', (rev) => {
    const response = createErrorResponse(undefined, { code: -32700, message: 'Parse error' });
    expect(response).not.toHaveProperty('id');
    const envelope = atLeast(rev, '2025-11-25') ? 'JSONRPCErrorResponse' : 'JSONRPCError';
    expect(wireIssues(getWire(rev).definitions[envelope], response)).toEqual([]);
    const errors = spec(rev).errors(envelope, response);
    if (atLeast(rev, '2025-11-25')) expect(errors).toEqual([]);
    else expect(errors.join('\n')).toContain("must have required property 'id'");
  });
});
