/**
 * Sealing of MRTR `requestState` (2026-07-28): the client must echo it byte-exact and must be
 * treated as an attacker. A sealed state is `base64url(payload).base64url(HMAC-SHA256)`; the
 * payload binds the method and a digest of the original params (and of the caller, when
 * authenticated), carries an expiry and a nonce,
 * and holds the handler's own state. Opening checks all of it and refuses a nonce twice, so a
 * tampered, expired, re-targeted or replayed state is rejected. Uses WebCrypto only, so it runs
 * on every runtime.
 */
import { canonicalJson } from './canonical-json';

/**
 * @experimental
 */
export interface RequestStateOptions {
  /** HMAC key (raw bytes or a string). Default: 32 random bytes per process. Share it across replicas. */
  key?: Uint8Array | string;
  /** How long a state stays valid. Default 10 minutes. */
  ttlMs?: number;
  /** Remembers used nonces until they expire. Default: in memory, per process. */
  replayGuard?: ReplayGuard;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Single-use enforcement of sealed states. Implement it on shared storage when several replicas
 * serve one endpoint.
 *
 * @experimental
 */
export interface ReplayGuard {
  /** Records `nonce` until `expiresAt`; false when it was already used. */
  claim(nonce: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * What a request is bound to: its method and the params that identify it (without `_meta`,
 * `inputResponses` and `requestState`).
 *
 * @experimental
 */
export interface RequestBinding {
  method: string;
  params: Record<string, unknown> | undefined;
  /** The authenticated caller, when there is one: a state opens only for the same caller. */
  principal?: string | undefined;
}

/**
 * @experimental
 */
export type OpenedState =
  | { ok: true; state: unknown; round: number }
  | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' | 'mismatch' | 'replayed' };

interface Payload {
  v: 1;
  m: string;
  d: string;
  r: number;
  exp: number;
  n: string;
  s?: unknown;
}

const DEFAULT_TTL_MS = 10 * 60 * 1000;
const encoder = new TextEncoder();

/**
 * Seals and opens `requestState` values.
 *
 * @experimental
 */
export class RequestStateCodec {
  private readonly key: ReturnType<typeof crypto.subtle.importKey>;
  private readonly ttlMs: number;
  private readonly guard: ReplayGuard;
  private readonly now: () => number;

  constructor(options: RequestStateOptions = {}) {
    if (options.ttlMs !== undefined && !(Number.isFinite(options.ttlMs) && options.ttlMs > 0)) {
      throw new TypeError('RequestStateOptions.ttlMs must be a positive number of milliseconds');
    }
    if (options.key !== undefined && options.key.length === 0) {
      throw new TypeError('RequestStateOptions.key must not be empty');
    }
    const raw =
      typeof options.key === 'string'
        ? encoder.encode(options.key)
        : (options.key ?? crypto.getRandomValues(new Uint8Array(32)));
    this.key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.now = options.now ?? Date.now;
    this.guard = options.replayGuard ?? new MemoryReplayGuard(this.now);
  }

  /** Seals the handler's `state` for round `round` of the request `binding`. */
  async seal(binding: RequestBinding, state: unknown, round: number): Promise<string> {
    const payload: Payload = {
      v: 1,
      m: binding.method,
      d: await digest(binding),
      r: round,
      exp: this.now() + this.ttlMs,
      n: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
      ...(state === undefined ? {} : { s: state }),
    };
    const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
    const mac = await crypto.subtle.sign('HMAC', await this.key, encoder.encode(body));
    return `${body}.${toBase64Url(new Uint8Array(mac))}`;
  }

  /** Opens a state received with `binding`; each sealed state opens successfully once. */
  async open(token: string, binding: RequestBinding): Promise<OpenedState> {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return { ok: false, reason: 'malformed' };
    const signature = fromBase64Url(mac);
    if (!signature) return { ok: false, reason: 'malformed' };
    const valid = await crypto.subtle.verify(
      'HMAC',
      await this.key,
      signature,
      encoder.encode(body),
    );
    if (!valid) return { ok: false, reason: 'bad-signature' };
    const payload = parsePayload(body);
    if (!payload) return { ok: false, reason: 'malformed' };
    if (payload.exp <= this.now()) return { ok: false, reason: 'expired' };
    if (payload.m !== binding.method || payload.d !== (await digest(binding))) {
      return { ok: false, reason: 'mismatch' };
    }
    if (!(await this.guard.claim(payload.n, payload.exp))) return { ok: false, reason: 'replayed' };
    return { ok: true, state: payload.s, round: payload.r };
  }
}

/** The default replay guard: used nonces in memory, dropped once expired. */
class MemoryReplayGuard implements ReplayGuard {
  private readonly used = new Map<string, number>();

  // The codec's clock: expiries are on that clock, so purging must be too.
  constructor(private readonly now: () => number) {}

  claim(nonce: string, expiresAt: number): boolean {
    const now = this.now();
    // Claims arrive roughly in expiry order (one TTL for all), so purge from the oldest and stop
    // at the first live one: O(expired) per claim, not O(all). A straggler lives at most one
    // TTL longer, and an expired state is refused before it is claimed anyway.
    for (const [key, expiry] of this.used) {
      if (expiry > now) break;
      this.used.delete(key);
    }
    if (this.used.has(nonce)) return false;
    this.used.set(nonce, expiresAt);
    return true;
  }
}

async function digest(binding: RequestBinding): Promise<string> {
  const params = binding.params ?? {};
  // With a caller, an array: no params object can digest the same as a bound pair.
  const bound = binding.principal === undefined ? params : [binding.principal, params];
  const hash = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(bound)));
  return toBase64Url(new Uint8Array(hash));
}

function parsePayload(body: string): Payload | undefined {
  const bytes = fromBase64Url(body);
  if (!bytes) return undefined;
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Payload>;
    const ok =
      value.v === 1 &&
      typeof value.m === 'string' &&
      typeof value.d === 'string' &&
      typeof value.r === 'number' &&
      typeof value.exp === 'number' &&
      typeof value.n === 'string';
    return ok ? (value as Payload) : undefined;
  } catch {
    return undefined;
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  try {
    const binary = atob(padded);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
