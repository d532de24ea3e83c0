/**
 * What a provider runs once it has to authorize: discovery, client identity, the grants and
 * their helpers. The provider loads this module on first need, so that a client that never
 * authorizes does not import oauth4webapi and jose (about half of the client's import time).
 */
export { authorizationCodeFlow } from './code-flow';
export {
  discoverAuthorizationServer,
  discoverResource,
  fallbackAuthorizationServer,
} from './discovery';
export { enterpriseGrant } from './enterprise';
export { clientCredentials, jwtBearer, refresh, storedTokens } from './grants';
export { resolveIdentity } from './identity';
export { step } from './oauth-http';
