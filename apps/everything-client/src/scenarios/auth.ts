/**
 * Every `auth/*` scenario: connect through an `OAuthProvider` as an application would, list the
 * tools and call `test-tool`. The suite's authorization servers redirect at once, so the
 * handler is a scripted user agent: it opens the authorization URL without following the
 * redirect and hands back where it points. Scenarios that give client credentials in
 * MCP_CONFORMANCE_CONTEXT get them as a pre-registered client. DPoP is asked for everywhere;
 * it is used where an authorization server supports it. The extension scenarios configure the
 * grant a program of their kind would use: client credentials, a workload's JWT, or the
 * enterprise identity provider's token exchange.
 */
import {
  type AuthorizationHandler,
  type McpClientOptions,
  OAuthProvider,
  type OAuthProviderOptions,
  type PreRegisteredClient,
} from '@twofold/client/experimental';
import { collect, type ScenarioRun, textOf, withClient } from '../run';

/** The suite's Client ID Metadata Document URL (it never fetches it during the flow). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Registered and sent; nothing listens there: the user agent below stops at the redirect. */
const REDIRECT_URI = 'http://127.0.0.1:3000/callback';

/** A browser that consents at once: where the authorization endpoint redirects is the answer. */
export const scriptedUserAgent: AuthorizationHandler = {
  redirectUri: () => REDIRECT_URI,
  async authorize({ url, signal }) {
    const response = await fetch(url, { redirect: 'manual', signal });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null)
      throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    return new URL(location, url);
  },
};

export async function authorization(run: ScenarioRun): Promise<void> {
  await useTools(run, new OAuthProvider(providerOptions(run)));
}

/** auth/client-credentials-*: a program acting as itself, with a secret or a private key. */
export async function clientCredentials(run: ScenarioRun): Promise<void> {
  const { context } = run;
  const privateKey = optional(context, 'private_key_pem');
  const signingAlgorithm = optional(context, 'signing_algorithm');
  const clientSecret = optional(context, 'client_secret');
  const client: PreRegisteredClient = {
    clientId: required(context, 'client_id'),
    ...(privateKey === undefined ? {} : { privateKey }),
    ...(signingAlgorithm === undefined ? {} : { signingAlgorithm }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
  };
  await useTools(run, new OAuthProvider({ grant: { type: 'client_credentials' }, client }));
}

/** auth/wif-jwt-bearer: a workload presenting the token its platform issued it (RFC 7523). */
export async function workloadIdentity(run: ScenarioRun): Promise<void> {
  const { context } = run;
  const workloadToken = required(context, 'valid_jwt');
  const auth = new OAuthProvider({
    grant: { type: 'jwt_bearer', assertion: () => workloadToken },
    client: { clientId: required(context, 'client_id') },
  });
  await useTools(run, auth);
}

/**
 * auth/enterprise-managed-authorization: the person signed in to the application at the
 * enterprise identity provider (the ID token); the provider exchanges it there for an ID-JAG
 * and redeems that at the MCP authorization server as the pre-registered client.
 */
export async function enterpriseManaged(run: ScenarioRun): Promise<void> {
  const { context } = run;
  const idToken = required(context, 'idp_id_token');
  const auth = new OAuthProvider({
    grant: {
      type: 'enterprise',
      idp: {
        issuer: required(context, 'idp_issuer'),
        tokenEndpoint: required(context, 'idp_token_endpoint'),
        clientId: required(context, 'idp_client_id'),
      },
      idToken: () => idToken,
    },
    client: {
      clientId: required(context, 'client_id'),
      clientSecret: required(context, 'client_secret'),
    },
  });
  await useTools(run, auth, {
    capabilities: {
      extensions: { 'io.modelcontextprotocol/enterprise-managed-authorization': {} },
    },
  });
}

async function useTools(
  run: ScenarioRun,
  auth: OAuthProvider,
  options: Partial<McpClientOptions> = {},
): Promise<void> {
  await withClient(
    run,
    options,
    async (client) => {
      const tools = await collect(client.iterateTools());
      run.log(`tools: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
      if (tools.some((tool) => tool.name === 'test-tool')) {
        run.log(`test-tool: ${textOf(await client.callTool('test-tool', {}))}`);
      }
    },
    { auth },
  );
}

function providerOptions(run: ScenarioRun): OAuthProviderOptions {
  const client = preRegistered(run.context);
  return {
    handler: scriptedUserAgent,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientMetadata: { client_name: 'twofold-everything-client' },
    dpop: true,
    ...(client === undefined ? {} : { client }),
  };
}

function preRegistered(context: Record<string, unknown>): PreRegisteredClient | undefined {
  const { client_id, client_secret } = context;
  if (typeof client_id !== 'string') return undefined;
  return {
    clientId: client_id,
    ...(typeof client_secret === 'string' ? { clientSecret: client_secret } : {}),
  };
}

function optional(context: Record<string, unknown>, name: string): string | undefined {
  const value = context[name];
  return typeof value === 'string' ? value : undefined;
}

function required(context: Record<string, unknown>, name: string): string {
  const value = optional(context, name);
  if (value === undefined) throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${name}`);
  return value;
}
