/**
 * The hook through which an HTTP client transport's requests are authorized (OAuth lives in
 * `@twofold/client`; the transports only ask for headers and report challenges).
 */

/**
 * One HTTP request a transport is about to send, or has sent, as an authorizer sees it.
 *
 * @experimental
 */
export interface HttpAuthRequest {
  /** The MCP endpoint the transport was made for (the protected resource). */
  readonly endpoint: URL;
  /** Where this request goes (the endpoint, or an HTTP+SSE POST URL). */
  readonly url: URL;
  readonly method: 'GET' | 'POST' | 'DELETE';
}

/**
 * The parts of an HTTP response an authorizer reads.
 *
 * @experimental
 */
export interface HttpAuthResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
}

/**
 * Authorizes the requests of an HTTP client transport: `headers` is asked right before every
 * request, `challenge` after every 401 or 403. Implementations must bound their own retries;
 * the transport also stops after {@link MAX_AUTHORIZATION_RETRIES} retries of one request.
 *
 * @experimental
 */
export interface HttpAuthorizer {
  /** Headers for this request (`Authorization`, `DPoP`, …); they override the caller's headers. */
  headers(request: HttpAuthRequest): Promise<Readonly<Record<string, string>>>;
  /**
   * A 401 or 403 came back. Resolve `true` to send the request again (with fresh `headers`),
   * `false` to fail it as an unauthorized response; reject to fail it with that error.
   */
  challenge(request: HttpAuthRequest, response: HttpAuthResponse): Promise<boolean>;
  /** Sees every other response (a DPoP nonce, or that a token worked). */
  observe?(request: HttpAuthRequest, response: HttpAuthResponse): void;
}

/** How often one request is re-sent after challenges before it fails. */
export const MAX_AUTHORIZATION_RETRIES = 4;
