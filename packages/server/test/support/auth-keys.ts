/**
 * An authorization server's part in the auth tests: signing keys made with jose, a JWKS served
 * on a loopback port (counting its fetches, its keys swappable for rotation), and access tokens.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';

export const ISSUER = 'https://auth.example.test';

/** A signing key and its public JWK. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, jwk };
}

/** A JWKS endpoint: `keys` is what it serves now; `fetches` counts the requests it answered. */
export interface JwksEndpoint {
  readonly url: string;
  keys: SigningKey[];
  /** Status to answer with instead of the set (e.g. 500, for an unavailable key server). */
  failWith: number | undefined;
  readonly fetches: number;
  close(): Promise<void>;
}

export async function serveJwks(keys: SigningKey[]): Promise<JwksEndpoint> {
  let fetches = 0;
  const endpoint = {
    url: '',
    keys,
    failWith: undefined as number | undefined,
    get fetches() {
      return fetches;
    },
    close: () => closeServer(server),
  };
  const server: Server = createServer((_req, res) => {
    fetches++;
    if (endpoint.failWith !== undefined) {
      res.writeHead(endpoint.failWith).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: endpoint.keys.map((key) => key.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  return endpoint;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Claims of a test token; `exp` defaults to an hour from now, `iss` to {@link ISSUER}. */
export type Claims = JWTPayload & { scope?: string; client_id?: string };

/** An access token signed with `key`. */
export function mint(key: SigningKey, claims: Claims, alg = 'ES256'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, iat: now, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg, kid: key.kid, typ: 'at+jwt' })
    .sign(key.privateKey);
}
