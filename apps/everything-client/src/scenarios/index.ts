/** Scenario name (as the conformance suite names it) → what the client does for it. */
import type { Scenario } from '../run';
import { authorization, clientCredentials, enterpriseManaged, workloadIdentity } from './auth';
import { basic } from './basic';
import { elicitationDefaults } from './elicitation-defaults';
import { customHeaders, invalidToolHeaders, standardHeaders } from './http-headers';
import { refNoDeref, schemaPreservation } from './json-schema';
import { requestMetadata } from './request-metadata';
import { requestState } from './request-state';
import { skillsListOnly, skillsLoadFirst } from './skills';
import { sseRetry } from './sse-retry';

export { explore } from './explore';

/** The authorization scenarios the suite scores at 2026-07-28 and 2025-11-25. */
const AUTH_SCENARIOS = [
  'metadata-default',
  'metadata-var1',
  'metadata-var2',
  'metadata-var3',
  'basic-cimd',
  'scope-from-www-authenticate',
  'scope-from-scopes-supported',
  'scope-omitted-when-undefined',
  'scope-step-up',
  'scope-retry-limit',
  'token-endpoint-auth-basic',
  'token-endpoint-auth-post',
  'token-endpoint-auth-none',
  'pre-registration',
  'resource-mismatch',
  'offline-access-scope',
  'offline-access-not-supported',
  'authorization-server-migration',
  'iss-supported',
  'iss-not-advertised',
  'iss-supported-missing',
  'iss-wrong-issuer',
  'iss-unexpected',
  'iss-normalized',
  'metadata-issuer-mismatch',
  '2025-03-26-oauth-metadata-backcompat',
  '2025-03-26-oauth-endpoint-fallback',
].map((name) => `auth/${name}`);

/**
 * The authorization extension scenarios: not listed per spec version (the suite runs them
 * with `--force`); the DPoP ones are the code flow with sender-constrained tokens.
 */
export const AUTH_EXTENSION_SCENARIOS: Readonly<Record<string, Scenario>> = {
  'auth/client-credentials-jwt': clientCredentials,
  'auth/client-credentials-basic': clientCredentials,
  'auth/wif-jwt-bearer': workloadIdentity,
  'auth/enterprise-managed-authorization': enterpriseManaged,
  'auth/dpop': authorization,
  'auth/dpop-nonce': authorization,
};

/** The skills extension scenarios (forced, like the authorization extension's). */
const SKILLS_EXTENSION_SCENARIOS: Readonly<Record<string, Scenario>> = {
  'sep-2640-client-no-prefetch': skillsListOnly,
  'sep-2640-client-verify-digest': skillsLoadFirst,
  'sep-2640-client-verify-size': skillsLoadFirst,
  'sep-2640-client-verify-frontmatter': skillsLoadFirst,
};

export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  ...Object.fromEntries(AUTH_SCENARIOS.map((name) => [name, authorization])),
  ...AUTH_EXTENSION_SCENARIOS,
  ...SKILLS_EXTENSION_SCENARIOS,
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
