/**
 * Every `auth/*` scenario: connect through an `OAuthProvider` as an application would, list the
 * tools and call `test-tool`. The suite's authorization servers redirect at once, so the
 * handler is a scripted user agent: it opens the authorization URL without following the
 * redirect and hands back where it points. Scenarios that give client credentials in
 * MCP_CONFORMANCE_CONTEXT get them as a pre-registered client.
 */
import {
  type AuthorizationHandler,
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
  const auth = new OAuthProvider(providerOptions(run));
  await withClient(
    run,
    {},
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
