/**
 * An `HttpAuthorizer` in front of the command's `OAuthProvider` that remembers the last
 * challenge (a 403 `insufficient_scope` names the scopes a new login must ask for), traces
 * challenges with `--verbose`, and tells when a request needs a person.
 */
import type {
  HttpAuthorizer,
  HttpAuthRequest,
  HttpAuthResponse,
} from '@twofold/transports/experimental';

/** The last 401 or 403 the server answered. */
export interface LastChallenge {
  status: number;
  /** The challenge's `scope` parameter, when it has one. */
  scope: string | undefined;
}

/** Options of {@link ChallengeRecorder}. */
export interface ChallengeRecorderOptions {
  trace?: (line: string) => void;
  /** A challenge could not be answered without a person. */
  onInteractionRequired?: (error: Error) => void;
}

/** Passes everything to `inner`, noting challenges on the way. */
export class ChallengeRecorder implements HttpAuthorizer {
  last: LastChallenge | undefined;

  constructor(
    private readonly inner: HttpAuthorizer,
    private readonly options: ChallengeRecorderOptions = {},
  ) {}

  headers(request: HttpAuthRequest): Promise<Readonly<Record<string, string>>> {
    return this.inner.headers(request);
  }

  async challenge(request: HttpAuthRequest, response: HttpAuthResponse): Promise<boolean> {
    const header = response.headers.get('www-authenticate');
    this.last = { status: response.status, scope: scopeParameter(header) };
    this.options.trace?.(
      `# oauth: HTTP ${response.status} from ${request.url.origin}${request.url.pathname}: ${header ?? 'no challenge'}`,
    );
    try {
      return await this.inner.challenge(request, response);
    } catch (error) {
      const step = (error as { details?: { step?: unknown } }).details?.step;
      if (step === 'interaction-required' && error instanceof Error)
        this.options.onInteractionRequired?.(error);
      throw error;
    }
  }

  observe(request: HttpAuthRequest, response: HttpAuthResponse): void {
    this.inner.observe?.(request, response);
  }
}

/** A space-separated scope string as a list without empties. */
export function splitScopes(scope: string | undefined): string[] {
  return (scope ?? '').split(' ').filter((s) => s.length > 0);
}

/** The `scope` parameter of a Bearer challenge (quoted or a token), if any. */
function scopeParameter(header: string | null): string | undefined {
  const match = /(?:^|[\s,])scope\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/i.exec(header ?? '');
  if (match === null) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}
