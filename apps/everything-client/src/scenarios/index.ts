/** Scenario name (as the conformance suite names it) → what the client does for it. */
import type { Scenario } from '../run';
import { basic } from './basic';
import { elicitationDefaults } from './elicitation-defaults';
import { customHeaders, invalidToolHeaders, standardHeaders } from './http-headers';
import { refNoDeref, schemaPreservation } from './json-schema';
import { requestMetadata } from './request-metadata';
import { requestState } from './request-state';
import { sseRetry } from './sse-retry';

export { explore } from './explore';

export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  initialize: basic,
  tools_call: basic,
  'elicitation-sep1034-client-defaults': elicitationDefaults,
  'sse-retry': sseRetry,
  'request-metadata': requestMetadata,
  'http-standard-headers': standardHeaders,
  'http-custom-headers': customHeaders,
  'http-invalid-tool-headers': invalidToolHeaders,
  'json-schema-ref-no-deref': refNoDeref,
  'json-schema-2020-12-preservation': schemaPreservation,
  'sep-2322-client-request-state': requestState,
};
