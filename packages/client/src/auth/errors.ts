/** The one error type of the OAuth client: which step failed, and why, never with a secret. */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';

/**
 * The step of the authorization flow that failed.
 *
 * @experimental
 */
export type AuthorizationStep =
  | 'resource-metadata'
  | 'authorization-server-metadata'
  | 'client-registration'
  | 'authorization'
  | 'redirect'
  | 'token'
  /** The enterprise grant's exchange of an ID token for an ID-JAG at the identity provider. */
  | 'token-exchange'
  | 'refresh'
  | 'step-up'
  | 'interaction-required';

/**
 * An authorization step failed (`code` `AUTHORIZATION_FAILED`). `step` says which; `details`
 * holds URLs, statuses and OAuth error codes, never a token, code or secret.
 *
 * @experimental
 */
export class AuthorizationError extends LocalError {
  override readonly name = 'AuthorizationError';
  constructor(
    readonly step: AuthorizationStep,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(LocalErrorCode.AuthorizationFailed, message, {
      ...options,
      details: { step, ...options?.details },
    });
  }
}
