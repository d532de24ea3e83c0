/**
 * Sealing of MRTR `requestState` (2026-07-28): the client must echo it byte-exact and must be
 * treated as an attacker. A sealed state is encrypted and authenticated (see `sealing.ts`), so
 * the client can neither read nor change it; inside, it binds the method and a digest of the
 * original params (and of the caller, when authenticated), carries an expiry, the round, what
 * the round asked (to check the answers), and the handler's own state. Opening checks all of it
 * and claims the state's nonce once, so a tampered, expired, re-targeted or replayed state is
 * rejected. WebCrypto only, so it runs on every runtime; no key is made before first use.
 */
import { encodeBase64Url } from '@twofold/protocol/experimental';
import type { RequestStateOptions } from '../core/options';
import type { ReplayGuard } from '../core/shared-state';
import { canonicalJson } from './canonical-json';
import type { AskedInput } from './input-responses';
import { DEFAULT_MAX_USED_STATES, MemoryReplayGuard } from './replay-guard';
import { Sealer } from './sealing';

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
 * Why a state did not open. `bad-signature`: it fails authentication (tampered, or sealed
 * under another key). `replay-guard-full`: it is valid but cannot be claimed now.
 *
 * @experimental
 */
export type RefusedStateReason =
  | 'malformed'
  | 'bad-signature'
  | 'expired'
  | 'mismatch'
  | 'replayed'
  | 'replay-guard-full';

/**
 * @experimental
 */
export type OpenedState =
  | { ok: true; state: unknown; round: number; asked: Readonly<Record<string, AskedInput>> }
  | { ok: false; reason: RefusedStateReason };

interface Payload {
  v: 2;
  m: string;
  d: string;
  r: number;
  exp: number;
  s?: unknown;
  a?: Record<string, AskedInput>;
}

const DEFAULT_TTL_MS = 10 * 60 * 1000;
const encoder = new TextEncoder();

/**
 * Seals and opens `requestState` values.
 *
 * @experimental
 */
export class RequestStateCodec {
  private readonly sealer: Sealer;
  private readonly ttlMs: number;
  private readonly guard: ReplayGuard;
  private readonly now: () => number;

  /** Checks the options only: keys are made on the first seal or open. */
  constructor(options: RequestStateOptions = {}) {
    if (options.ttlMs !== undefined && !(Number.isFinite(options.ttlMs) && options.ttlMs > 0)) {
      throw new TypeError('RequestStateOptions.ttlMs must be a positive number of milliseconds');
    }
    if (options.key !== undefined && options.key.length === 0) {
      throw new TypeError('RequestStateOptions.key must not be empty');
    }
    this.sealer = new Sealer(
      typeof options.key === 'string' ? encoder.encode(options.key) : options.key,
    );
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.now = options.now ?? Date.now;
    this.guard =
      options.replayGuard ??
      new MemoryReplayGuard(options.maxUsedStates ?? DEFAULT_MAX_USED_STATES, this.now);
  }

  /**
   * Seals the handler's `state` for round `round` of the request `binding`, with what the round
   * asked (`asked`), so the answers can be checked on the retry.
   */
  async seal(
    binding: RequestBinding,
    state: unknown,
    round: number,
    asked?: Readonly<Record<string, AskedInput>>,
  ): Promise<string> {
    const payload: Payload = {
      v: 2,
      m: binding.method,
      d: await digest(binding),
      r: round,
      exp: this.now() + this.ttlMs,
      ...(state === undefined ? {} : { s: state }),
      ...(asked === undefined || Object.keys(asked).length === 0 ? {} : { a: { ...asked } }),
    };
    return this.sealer.seal(encoder.encode(JSON.stringify(payload)));
  }

  /** Opens a state received with `binding`; each sealed state opens successfully once. */
  async open(token: string, binding: RequestBinding): Promise<OpenedState> {
    const unsealed = await this.sealer.open(token);
    if (unsealed === 'malformed') return { ok: false, reason: 'malformed' };
    if (unsealed === 'forged') return { ok: false, reason: 'bad-signature' };
    const payload = parsePayload(unsealed.plaintext);
    if (!payload) return { ok: false, reason: 'malformed' };
    if (payload.exp <= this.now()) return { ok: false, reason: 'expired' };
    if (payload.m !== binding.method || payload.d !== (await digest(binding))) {
      return { ok: false, reason: 'mismatch' };
    }
    // Claimed last: only an authentic, live state for this request uses up a guard entry.
    const claimed = await this.guard.claim(unsealed.nonce, payload.exp);
    if (claimed === 'full') return { ok: false, reason: 'replay-guard-full' };
    if (!claimed) return { ok: false, reason: 'replayed' };
    return { ok: true, state: payload.s, round: payload.r, asked: payload.a ?? {} };
  }
}

async function digest(binding: RequestBinding): Promise<string> {
  const params = binding.params ?? {};
  // With a caller, an array: no params object can digest the same as a bound pair.
  const bound = binding.principal === undefined ? params : [binding.principal, params];
  const hash = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(bound)));
  return encodeBase64Url(new Uint8Array(hash));
}

function parsePayload(bytes: Uint8Array): Payload | undefined {
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Payload>;
    const ok =
      value.v === 2 &&
      typeof value.m === 'string' &&
      typeof value.d === 'string' &&
      typeof value.r === 'number' &&
      typeof value.exp === 'number' &&
      (value.a === undefined || (typeof value.a === 'object' && value.a !== null));
    return ok ? (value as Payload) : undefined;
  } catch {
    return undefined;
  }
}
