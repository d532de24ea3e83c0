/**
 * The two error families: wire errors (`ProtocolError`, a numeric JSON-RPC code from
 * `ErrorCode`) and local errors (`LocalError`, a string code for things that never crossed
 * the wire, such as a timeout). Local errors must never look like peer errors.
 */
import type { ClientCapabilities } from './types';
import { isRecord } from './util';

/**
 * Every JSON-RPC error code twofold emits or interprets.
 *
 * @experimental
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2026-07-28: an HTTP header is missing, malformed or differs from the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request lacks a client capability the server needs. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not offered; data lists the supported ones. */
  UnsupportedProtocolVersion: -32022,
  /** Legacy only (retired in 2026-07-28, where not-found is -32602): resource not found. */
  LegacyResourceNotFound: -32002,
  /** 2025-11-25 only (retired in 2026-07-28): URL elicitation required. */
  LegacyUrlElicitationRequired: -32042,
} as const;
/**
 * A JSON-RPC error code twofold emits or interprets.
 *
 * @experimental
 */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The `error` member of a JSON-RPC error response.
 *
 * @experimental
 */
export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error that travels as a JSON-RPC error response.
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool('get_forecast', { city: 'Paris' });
 * } catch (error) {
 *   if (error instanceof ProtocolError && error.code === ErrorCode.InvalidParams) {
 *     console.error('rejected by the server:', error.message, error.data);
 *   } else throw error;
 * }
 * ```
 * @experimental
 */
export class ProtocolError extends Error {
  override readonly name: string = 'ProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The JSON-RPC `error` object for this error. */
  toErrorObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds the most specific error class from a received `error` object. */
  static fromErrorObject(error: ErrorObject): ProtocolError {
    if (error.code === ErrorCode.UnsupportedProtocolVersion) {
      const data = asRecord(error.data);
      const supported = Array.isArray(data?.supported)
        ? data.supported.filter((v): v is string => typeof v === 'string')
        : [];
      const requested = typeof data?.requested === 'string' ? data.requested : '';
      return new UnsupportedProtocolVersionError(supported, requested, error.message);
    }
    if (error.code === ErrorCode.MissingRequiredClientCapability) {
      const required = asRecord(asRecord(error.data)?.requiredCapabilities) ?? {};
      return new MissingRequiredClientCapabilityError(
        required as ClientCapabilities,
        error.message,
      );
    }
    if (error.code === ErrorCode.HeaderMismatch)
      return new HeaderMismatchError(error.message, error.data);
    return plainProtocolError(error);
  }
}

/**
 * Outside the class on purpose: a class body that names its own class is renamed by the bundler
 * (`_ProtocolError`), and the packages are built without keeping names (it costs every closure).
 */
function plainProtocolError(error: ErrorObject): ProtocolError {
  return new ProtocolError(error.code, error.message, error.data);
}

/**
 * -32022: the version a request named is not offered.
 *
 * @experimental
 */
export class UnsupportedProtocolVersionError extends ProtocolError {
  override readonly name = 'UnsupportedProtocolVersionError';
  constructor(
    readonly supported: readonly string[],
    readonly requested: string,
    message = `Unsupported protocol version ${JSON.stringify(requested)}; supported: ${supported.join(', ')}`,
  ) {
    super(ErrorCode.UnsupportedProtocolVersion, message, { supported: [...supported], requested });
  }
}

/**
 * -32021: the server needs a client capability the request did not declare.
 *
 * @experimental
 */
export class MissingRequiredClientCapabilityError extends ProtocolError {
  override readonly name = 'MissingRequiredClientCapabilityError';
  constructor(
    readonly requiredCapabilities: ClientCapabilities,
    message = `Missing required client capabilities: ${Object.keys(requiredCapabilities).join(', ')}`,
  ) {
    super(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities });
  }
}

/**
 * -32020: an HTTP header is missing, malformed or disagrees with the body.
 *
 * @experimental
 */
export class HeaderMismatchError extends ProtocolError {
  override readonly name = 'HeaderMismatchError';
  constructor(message: string, data?: unknown) {
    super(ErrorCode.HeaderMismatch, message, data);
  }
}

/**
 * String codes of local errors: failures that did not come from the peer.
 *
 * @experimental
 */
export const LocalErrorCode = {
  RequestTimeout: 'REQUEST_TIMEOUT',
  RequestAborted: 'REQUEST_ABORTED',
  ConnectionClosed: 'CONNECTION_CLOSED',
  NotConnected: 'NOT_CONNECTED',
  MessageTooLarge: 'MESSAGE_TOO_LARGE',
  InvalidMessage: 'INVALID_MESSAGE',
  ProcessExited: 'PROCESS_EXITED',
  HttpError: 'HTTP_ERROR',
  /** A legacy HTTP session the server no longer knows (404): re-initialize without its id. */
  SessionExpired: 'SESSION_EXPIRED',
  Unauthorized: 'UNAUTHORIZED',
  NoMutualVersion: 'NO_MUTUAL_VERSION',
  EraDetectionFailed: 'ERA_DETECTION_FAILED',
  TooManyRounds: 'TOO_MANY_ROUNDS',
  LimitExceeded: 'LIMIT_EXCEEDED',
  InvalidResult: 'INVALID_RESULT',
  /** An OAuth step failed: discovery, registration, the user's consent, a token request. */
  AuthorizationFailed: 'AUTHORIZATION_FAILED',
  /** A skill file whose digest, size or frontmatter differs from its skill entry. */
  SkillVerificationFailed: 'SKILL_VERIFICATION_FAILED',
} as const;
/**
 * The string code of a local error.
 *
 * @experimental
 */
export type LocalErrorCode = (typeof LocalErrorCode)[keyof typeof LocalErrorCode];

/**
 * An error raised on this side: a timeout, a closed connection, a limit, a bad peer message.
 *
 * @experimental
 */
export class LocalError extends Error {
  override readonly name: string = 'LocalError';
  constructor(
    readonly code: LocalErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.details = options?.details;
  }
  /** Structured context (exit code, stderr tail, limit, …), where there is any. */
  readonly details: Record<string, unknown> | undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}
