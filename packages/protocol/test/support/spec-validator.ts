/**
 * Shared by the `schema-*.test.ts` files: the official `schema.json` of each revision compiled
 * with Ajv (`spec(rev)`), Zod issues as strings, and messages built as twofold's peers build them.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createNotification, createRequest } from '../../src/jsonrpc';
import { buildRequestMeta } from '../../src/meta';
import type { MethodSchema, Validator, Wire } from '../../src/registry';
import type { Implementation } from '../../src/types';
import { type ProtocolVersion, SUPPORTED_VERSIONS } from '../../src/versions';
import { clientCapabilities, implementation, type Json } from '../fixtures/sample-parts';
import { readSchema } from '../spec-files';

export const MODERN: ProtocolVersion = '2026-07-28';
export const REVISIONS = SUPPORTED_VERSIONS;
/** An opaque `requestState` of a 2026 multi round-trip request. */
export const REQUEST_STATE = 'eyJzdGVwIjoxfQ.c2lnbmF0dXJl';

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

export function spec(rev: ProtocolVersion): SpecValidator {
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
export function wireIssues(schema: Validator | undefined, value: unknown): string[] {
  if (!schema) return ['twofold has no such schema'];
  const parsed = schema.safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '/'}: ${i.message}`);
}

// ---------------------------------------------------------------------------------------------
// Building messages as twofold's peers do.

export function modernMeta(): Json {
  return buildRequestMeta({
    protocolVersion: MODERN,
    clientCapabilities: clientCapabilities(MODERN),
    clientInfo: implementation(MODERN, 'client') as unknown as Implementation,
    logLevel: 'info',
    progressToken: 'progress-1',
    trace: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
  });
}

export const isInputRequest = (wire: Wire, method: string) => wire.inputRequests.has(method);

export function methodOf(wire: Wire, method: string): MethodSchema {
  const m = wire.methods.get(method) ?? wire.inputRequests.get(method);
  if (!m) throw new Error(`${wire.version} has no ${method}`);
  return m;
}

/** The wire message: a 2026 input request is the bare `{ method, params }` (no jsonrpc, id). */
export function buildMessage(wire: Wire, m: MethodSchema, params: Json | undefined): Json {
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
export function completeResult(wire: Wire, m: MethodSchema, result: Json, override?: string): Json {
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
