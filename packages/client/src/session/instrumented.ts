/**
 * Reports a session's requests to the client's `ClientInstrumentation`: the one place every
 * request of a connected client passes (`McpClient` and its pipeline send through it).
 */
import type { TraceContext } from '@twofold/protocol/experimental';
import type { ClientInstrumentation } from '../instrumentation';
import type { EraSession, SessionRequestOptions } from './types';

/**
 * The session with each `request` and `ping` reported to `instrumentation` (the session itself
 * when there is none). `clientTrace` is the client's own `trace` option, which wins over the
 * observer's trace context as a call's `trace` does.
 */
export function instrumentSession(
  session: EraSession,
  instrumentation: ClientInstrumentation | undefined,
  clientTrace: TraceContext | undefined,
): EraSession {
  if (instrumentation === undefined) return session;
  const observe = async (
    method: string,
    params: Record<string, unknown> | undefined,
    options: SessionRequestOptions,
    send: (options: SessionRequestOptions) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> => {
    const { verdict, sessionId } = session;
    const observer = instrumentation.startRequest({
      method,
      params,
      era: verdict.era,
      protocolVersion: verdict.protocolVersion,
      http: verdict.transport !== 'stream',
      ...(sessionId === undefined ? {} : { sessionId }),
    });
    const trace = options.trace ?? clientTrace ?? observer.trace;
    let result: Record<string, unknown>;
    try {
      result = await send({
        ...options,
        ...(trace === undefined ? {} : { trace }),
        onSent: (id) => {
          options.onSent?.(id);
          observer.sent?.(id);
        },
      });
    } catch (error) {
      observer.end({ ok: false, error });
      throw error;
    }
    observer.end({ ok: true, result });
    return result;
  };
  // A modern ping is a `server/discover` on the wire.
  const pingMethod = () => (session.verdict.era === 'modern' ? 'server/discover' : 'ping');
  return {
    get verdict() {
      return session.verdict;
    },
    get facts() {
      return session.facts;
    },
    get sessionId() {
      return session.sessionId;
    },
    request: (method, params, options = {}) =>
      observe(method, params, options, (traced) => session.request(method, params, traced)),
    listen: (filter, options) => session.listen(filter, options),
    async ping(options = {}) {
      await observe(pingMethod(), undefined, options, async (traced) => {
        await session.ping(traced);
        return {};
      });
    },
    close: () => session.close(),
  };
}
