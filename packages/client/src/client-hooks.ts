/**
 * The hooks `McpClient` gives its era session: identity and capabilities, input answering,
 * and what each server notification changes on the client side (cache, tool catalog, logs).
 */
import type { ResultCache } from './cache/result-cache';
import type { ToolCatalog } from './catalog/tool-catalog';
import type { InputAnswerer } from './input/answerer';
import { isRepeatable } from './modern/retry';
import type { SessionHooks } from './session/types';
import type { McpClientOptions } from './types';
import { messageOf } from './util';

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Ten minutes: long tool runs fit, a server reporting progress forever does not. */
const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/** What the hooks reach into. */
export interface ClientParts {
  options: McpClientOptions;
  answerer: InputAnswerer;
  catalog: ToolCatalog;
  cache: ResultCache | undefined;
  /** The connection ended; `error` says why when it was not `close()`. */
  onEnd(error: Error | undefined): void;
}

/** Builds the session hooks of one client. */
export function clientHooks(parts: ClientParts): SessionHooks {
  const { options: o, answerer, catalog, cache } = parts;
  const warn = (message: string) => o.onWarning?.({ code: 'unexpected-message', message });
  return {
    clientInfo: o.clientInfo,
    capabilities: { ...o.capabilities, ...answerer.capabilities },
    logLevel: o.logLevel,
    trace: o.trace,
    requestTimeoutMs: o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxTotalTimeoutMs: o.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
    answerInput: (method, params, context) => answerer.answer(method, params, context),
    onNotification: (method, params) => {
      cache?.invalidate(method, params).catch((error: unknown) => {
        warn(`cache invalidation failed: ${messageOf(error)}`);
      });
      // A stale schema would reject good results and send outdated headers; the next listTools
      // (or a -32020 refresh) fills the catalog again.
      if (method === 'notifications/tools/list_changed') catalog.clear();
      if (method === 'notifications/message' && params) o.onLog?.(params);
      o.onNotification?.(method, params);
    },
    onWarning: (warning) => o.onWarning?.(warning),
    retry: o.retry,
    isRepeatable: (method, params) => isRepeatable(method, params, (name) => catalog.get(name)),
    onClose: (error) => parts.onEnd(error),
  };
}
