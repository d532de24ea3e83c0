/**
 * The sealed `requestState` of modern multi-round-trip requests: one codec per served server,
 * the binding of a request (its method and identifying params), and the opening of a retry's
 * state, where every failure is the client's -32602 except a full replay guard (-32603: the
 * server's limit, and the state stays usable).
 */
import { ErrorCode, INPUT_REQUIRED_METHODS, ProtocolError } from '@twofold/protocol/experimental';
import type { AuthInfo } from '../auth/types';
import type { ServedServer } from '../core/served-server';
import type { AskedInput } from './input-responses';
import { type RefusedStateReason, type RequestBinding, RequestStateCodec } from './request-state';

/** What a request carries over from its earlier rounds. */
export interface Retry {
  /** The handler state of the previous round (`undefined` on a first attempt). */
  state: unknown;
  /** Rounds of input asked so far (0 on a first attempt). */
  round: number;
  /** What the previous round asked, by key (empty on a first attempt). */
  asked: Readonly<Record<string, AskedInput>>;
}

const FIRST_ATTEMPT: Retry = { state: undefined, round: 0, asked: {} };

const REASONS: Record<Exclude<RefusedStateReason, 'replay-guard-full'>, string> = {
  malformed: 'is not a requestState this server issued',
  'bad-signature': 'failed verification',
  expired: 'has expired; start the request again without it',
  mismatch: 'belongs to another request (method, arguments or caller differ)',
  replayed: 'was already used; each requestState is accepted once',
};

// One codec per server object, created on first use from its options: the key (random per
// process unless configured) and the replay guard must be shared by every request it serves.
const codecs = new WeakMap<ServedServer, RequestStateCodec>();

/** The codec sealing and opening `server`'s request states. */
export function requestStateCodecOf(server: ServedServer): RequestStateCodec {
  let codec = codecs.get(server);
  if (codec === undefined) {
    codec = new RequestStateCodec(server.options.requestState);
    codecs.set(server, codec);
  }
  return codec;
}

/**
 * What a state is bound to: the method, the params without `_meta` and the MRTR fields, and
 * the caller when the request was authenticated.
 */
export function bindingOf(
  method: string,
  params: Record<string, unknown> | undefined,
  principal?: string | undefined,
): RequestBinding {
  const { _meta, inputResponses, requestState, ...identifying } = params ?? {};
  return principal === undefined
    ? { method, params: identifying }
    : { method, params: identifying, principal };
}

/** Who an authenticated request acts for, as a state binds it: user and client. */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  return JSON.stringify([auth.subject ?? null, auth.clientId ?? null]);
}

/**
 * Opens the `requestState` of a retry of `method` (validated params). Without one it is a
 * first attempt; a state that does not open is -32602 with `data.reason`.
 */
export function openRetry(
  server: ServedServer,
  method: string,
  params: Record<string, unknown> | undefined,
  principal?: string | undefined,
): Retry | Promise<Retry> {
  const token = params?.requestState;
  // A first attempt, the common case, is known at once: no promise, no turn of the loop.
  if (typeof token !== 'string' || !INPUT_REQUIRED_METHODS.has(method)) return FIRST_ATTEMPT;
  return openSealed(server, method, params, token, principal);
}

async function openSealed(
  server: ServedServer,
  method: string,
  params: Record<string, unknown> | undefined,
  token: string,
  principal: string | undefined,
): Promise<Retry> {
  const binding = bindingOf(method, params, principal);
  const opened = await requestStateCodecOf(server).open(token, binding);
  if (!opened.ok) {
    if (opened.reason === 'replay-guard-full') {
      throw new ProtocolError(
        ErrorCode.InternalError,
        'The server cannot take another retry right now (too many recent rounds); retry later with the same requestState',
        { reason: opened.reason },
      );
    }
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid requestState: it ${REASONS[opened.reason]}`,
      { reason: opened.reason },
    );
  }
  return { state: opened.state, round: opened.round, asked: opened.asked };
}
