/**
 * DPoP (RFC 9449): the key pair a provider binds its tokens to, its form in the token store,
 * the algorithm chosen from the authorization server's `dpop_signing_alg_values_supported`, the
 * proofs sent with each MCP request (built with jose), and the nonces resource servers hand out.
 * Token requests get their proofs from oauth4webapi's `DPoP` handle, which keeps the
 * authorization server's nonces itself. Both libraries load with the first key: a provider
 * is made eagerly, its DPoP side is used only once it authorizes.
 */
import type { JWK } from 'jose';
import type * as oauth from 'oauth4webapi';
import { parseChallenges } from './challenge';
import type { StoredCredentials } from './types';

/**
 * Asymmetric JWS algorithms this client signs proofs with, most preferred first (RFC 9449
 * §4.2 forbids `none` and symmetric ones). `EdDSA` is left out: oauth4webapi names its proofs
 * `Ed25519`, which a server that lists only `EdDSA` would not take.
 */
const PROOF_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'Ed25519',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
] as const;

/** A DPoP key pair ready for both kinds of proof. */
export interface DpopKey {
  readonly alg: string;
  readonly keyPair: oauth.CryptoKeyPair;
  /** The public key as the `jwk` header of every proof (public members only). */
  readonly publicJwk: JWK;
  /** oauth4webapi's handle for token requests; it remembers the authorization server's nonces. */
  readonly handle: oauth.DPoPHandle;
}

/** The stored form of a key (`StoredCredentials.dpopKey`). */
export type StoredDpopKey = NonNullable<StoredCredentials['dpopKey']>;

/**
 * The algorithm to sign proofs with at `as`, or `undefined` when it does not advertise DPoP
 * (or only algorithms this client does not sign with): ES256 when listed.
 */
export function dpopAlgorithm(as: oauth.AuthorizationServer): string | undefined {
  const supported = as.dpop_signing_alg_values_supported;
  if (!Array.isArray(supported)) return undefined;
  return PROOF_ALGORITHMS.find((alg) => supported.includes(alg));
}

/** A new key pair for `alg`; the private key is extractable so that the store can keep it. */
export async function createDpopKey(alg: string): Promise<DpopKey> {
  const { generateKeyPair } = await import('jose');
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return keyOf(alg, { publicKey, privateKey });
}

/** A key back from the store; `undefined` when the record holds none or one that does not load. */
export async function restoreDpopKey(
  stored: StoredDpopKey | undefined,
): Promise<DpopKey | undefined> {
  const alg = stored?.privateJwk.alg ?? stored?.publicJwk.alg;
  if (stored === undefined || alg === undefined) return undefined;
  try {
    const { importJWK } = await import('jose');
    const [privateKey, publicKey] = await Promise.all([
      importJWK(stored.privateJwk, alg, { extractable: true }),
      importJWK(stored.publicJwk, alg, { extractable: true }),
    ]);
    if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) return undefined;
    return keyOf(alg, { publicKey, privateKey });
  } catch {
    return undefined;
  }
}

/** The key as the store keeps it: both halves as JWKs, each naming its algorithm. */
export async function storeDpopKey(key: DpopKey): Promise<StoredDpopKey> {
  const { exportJWK } = await import('jose');
  const privateJwk = await exportJWK(key.keyPair.privateKey);
  return {
    publicJwk: { ...key.publicJwk, alg: key.alg },
    privateJwk: { ...withoutExtras(privateJwk), alg: key.alg },
  };
}

/** What one proof for a resource request covers. */
export interface ProofRequest {
  readonly method: string;
  readonly url: URL;
  readonly accessToken: string;
  readonly nonce?: string | undefined;
}

/**
 * A DPoP proof for one request to a resource server (RFC 9449 §4.2, §7): a fresh `jti`, the
 * method and the URL without query or fragment, `ath` binding the access token, and the
 * server's nonce when it gave one.
 */
export async function resourceProof(key: DpopKey, request: ProofRequest): Promise<string> {
  const { base64url, SignJWT } = await import('jose');
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(request.accessToken),
  );
  return new SignJWT({
    htm: request.method,
    htu: `${request.url.origin}${request.url.pathname}`,
    ath: base64url.encode(new Uint8Array(digest)),
    ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
  })
    .setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.publicJwk })
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .sign(key.keyPair.privateKey);
}

/** The nonces resource servers asked for (RFC 9449 §9), one per origin, the latest kept. */
export class DpopNonces {
  readonly #byOrigin = new Map<string, string>();

  get(url: URL): string | undefined {
    return this.#byOrigin.get(url.origin);
  }

  /** Keeps the `DPoP-Nonce` of a response, if it has one; returns it. */
  take(url: URL, headers: { get(name: string): string | null }): string | undefined {
    const nonce = headers.get('dpop-nonce') ?? undefined;
    if (nonce === undefined || nonce === '') return undefined;
    // A bounded cache: a client talking to more origins than this forgets the oldest.
    if (this.#byOrigin.size >= 100 && !this.#byOrigin.has(url.origin)) {
      const oldest = this.#byOrigin.keys().next().value;
      if (oldest !== undefined) this.#byOrigin.delete(oldest);
    }
    this.#byOrigin.set(url.origin, nonce);
    return nonce;
  }
}

async function keyOf(alg: string, keyPair: oauth.CryptoKeyPair): Promise<DpopKey> {
  const [{ exportJWK }, { DPoP }] = await Promise.all([import('jose'), import('oauth4webapi')]);
  const publicJwk = publicMembers(await exportJWK(keyPair.publicKey));
  return { alg, keyPair, publicJwk, handle: DPoP({}, keyPair) };
}

/** Only what identifies a public key: no private part, usage or extractability flags. */
function publicMembers(jwk: JWK): JWK {
  const { kty, crv, x, y, n, e } = jwk;
  const members: JWK = { kty };
  for (const [name, value] of Object.entries({ crv, x, y, n, e })) {
    if (value !== undefined) (members as Record<string, unknown>)[name] = value;
  }
  return members;
}

function withoutExtras(jwk: JWK): JWK {
  const { ext: _ext, key_ops: _ops, ...rest } = jwk;
  return rest;
}

/** What a request presented, for telling a nonce challenge to answer from one already tried. */
export interface Presented {
  readonly token: string | undefined;
  /** Set when the token went out as a DPoP token, with the nonce its proof carried. */
  readonly dpop?: { readonly nonce: string | undefined };
}

/**
 * A provider's DPoP side: one key per algorithm (made on first use, shared by its servers),
 * the resource servers' nonces, and the headers that present a DPoP-bound token.
 */
export class DpopBinding {
  readonly #enabled: boolean;
  readonly #keys = new Map<string, Promise<DpopKey>>();
  readonly #nonces = new DpopNonces();

  constructor(enabled: boolean) {
    this.#enabled = enabled;
  }

  /**
   * The key new tokens from `as` are bound to: `current` while `as` still takes its
   * algorithm, else this provider's key for the algorithm chosen; `undefined` without DPoP.
   */
  async keyFor(
    as: oauth.AuthorizationServer,
    current: DpopKey | undefined,
  ): Promise<DpopKey | undefined> {
    if (!this.#enabled) return undefined;
    if (current !== undefined && as.dpop_signing_alg_values_supported?.includes(current.alg))
      return current;
    const alg = dpopAlgorithm(as);
    if (alg === undefined) return undefined;
    let key = this.#keys.get(alg);
    if (key === undefined) {
      key = createDpopKey(alg);
      this.#keys.set(alg, key);
      key.catch(() => this.#keys.delete(alg));
    }
    return key;
  }

  /** `Authorization: DPoP …` and a fresh proof for `request`, with the nonce its server gave. */
  async present(
    key: DpopKey,
    token: string,
    request: { method: string; url: URL },
  ): Promise<{ headers: Record<string, string>; presented: Presented }> {
    const nonce = this.#nonces.get(request.url);
    const proof = await resourceProof(key, { ...request, accessToken: token, nonce });
    return {
      headers: { authorization: `DPoP ${token}`, dpop: proof },
      presented: { token, dpop: { nonce } },
    };
  }

  /** Keeps a resource server's `DPoP-Nonce`, from any response. */
  observe(url: URL, headers: { get(name: string): string | null }): void {
    this.#nonces.take(url, headers);
  }

  /**
   * Whether a 401 asks for a nonce (RFC 9449 §9: `DPoP error="use_dpop_nonce"` with a
   * `DPoP-Nonce`) other than the one the request's proof already carried: then the request is
   * sent again with it, and no new token is needed.
   */
  wantsNonce(
    url: URL,
    response: { status: number; headers: { get(name: string): string | null } },
    presented: Presented | undefined,
  ): boolean {
    const nonce = this.#nonces.take(url, response.headers);
    if (response.status !== 401 || presented?.dpop === undefined || nonce === undefined)
      return false;
    const asked = parseChallenges(response.headers.get('www-authenticate')).some(
      (challenge) => challenge.scheme === 'dpop' && challenge.params.error === 'use_dpop_nonce',
    );
    return asked && nonce !== presented.dpop.nonce;
  }
}
