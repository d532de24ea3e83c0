/**
 * Stateless dispatch of one modern (2026-07-28) request. Checks run in the order the spec
 * implies: the version first (-32022 on any method, so a client can always move on), then the
 * method (-32601, also for methods the server's capabilities do not offer), then the params
 * including the required `_meta` (-32602), then the operation.
 */
import {
  createErrorResponse,
  createResultResponse,
  ErrorCode,
  findMethod,
  getWire,
  type JsonRpcRequest,
  type JsonRpcResponse,
  META_KEYS,
  type ModernVersion,
  ProtocolError,
  parseParams,
  protocolVersionOf,
  type SubscriptionFilter,
  UnsupportedProtocolVersionError,
} from '@twofold/protocol/experimental';
import type { RequestContext } from '../api';
import { toWireError } from '../core/error-mapping';
import { callExtensionMethod, requireEnvelope } from '../core/extension-methods';
import { HandlerContext } from '../core/handler-context';
import { instrumented } from '../core/instrumentation';
import type { ModernIo } from '../core/modern-io';
import { callOperation, isAdvertised, isOperationMethod } from '../core/operation-call';
import { createReporter } from '../core/reporting';
import { offeredVersionList, type ServedServer } from '../core/served-server';
import { serveListen } from '../listen/serve-listen';
import { checkTaskSubscription } from '../listen/task-status';
import { inputResponseReader } from '../mrtr/input-responses';
import { openRetry, principalOf } from '../mrtr/modern-state';
import { discoverResult } from './discover';
import { completeModernResult, inputRequiredResult } from './results';
import { isTaskMethod, serveTaskMethod, startToolTask } from './tasks';

/**
 * Serves one modern request statelessly and returns its one response (never throws).
 *
 * @experimental
 */
export function handleModernRequest(
  server: ServedServer,
  message: JsonRpcRequest,
  io: ModernIo,
): Promise<JsonRpcResponse> {
  const { instrumentation } = server.options;
  if (instrumentation === undefined) return answer(server, message, io);
  const channel = {
    era: 'modern' as const,
    protocolVersion: protocolVersionOf(message.params),
    sessionId: undefined,
    headers: io.headers,
  };
  return instrumented(instrumentation, message, channel, () => answer(server, message, io));
}

/** One response for the request, whatever happens; chained rather than awaited (hot path). */
function answer(
  server: ServedServer,
  message: JsonRpcRequest,
  io: ModernIo,
): Promise<JsonRpcResponse> {
  // Logs and progress must not follow the response.
  let answered = false;
  const live = () => !answered && !(io.aborted ?? io.signal.aborted);
  return dispatch(server, message, io, live).then(
    (result) => {
      answered = true;
      return createResultResponse(message.id, result);
    },
    (error: unknown) => {
      answered = true;
      return createErrorResponse(
        message.id,
        toWireError(error, 'modern', message.method, io.onerror),
      );
    },
  );
}

async function dispatch(
  server: ServedServer,
  message: JsonRpcRequest,
  io: ModernIo,
  live: () => boolean,
): Promise<Record<string, unknown>> {
  const { method, params } = message;
  const version = protocolVersionOf(params);
  if (version === undefined) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Missing _meta["${META_KEYS.protocolVersion}"]: every modern request names its version`,
    );
  }
  if (!(server.offeredVersions.modern as readonly string[]).includes(version)) {
    throw new UnsupportedProtocolVersionError(offeredVersionList(server), version);
  }
  const extension = server.extensionMethod?.(method);
  if (extension !== undefined) {
    const { result, cache } = await callExtensionMethod(extension, params, { modern: true });
    return completeModernResult(server, result, cache);
  }
  if (isTaskMethod(method)) return serveTaskMethod(server, message, io);
  const spec = findMethod(version as ModernVersion, method);
  const capabilities = server.operations.capabilities();
  if (spec?.kind !== 'request' || spec.sender === 'server' || !isAdvertised(method, capabilities)) {
    throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
  const parsed = parseParams(getWire(version as ModernVersion), method, params);
  if (!parsed.ok) throw parsed.error;
  const envelope = requireEnvelope(parsed.value);

  if (method === 'server/discover') return discoverResult(server, capabilities);
  if (method === 'subscriptions/listen') {
    const filter = (parsed.value?.notifications ?? {}) as SubscriptionFilter;
    checkTaskSubscription(filter, envelope.clientCapabilities);
    return serveListen(server, message.id, filter, io);
  }
  if (!isOperationMethod(method)) {
    // A method of the revision this server does not serve (none today).
    throw new ProtocolError(ErrorCode.MethodNotFound, `Method not supported: ${method}`);
  }
  // A sealed state opens only for the principal it was issued to.
  const principal = principalOf(io.auth);
  const opening = openRetry(server, method, parsed.value, principal);
  const retry = opening instanceof Promise ? await opening : opening;
  const inputResponses = parsed.value?.inputResponses as RequestContext['inputResponses'];
  const reporter = createReporter({
    progressToken: envelope.progressToken,
    logLevel: () => envelope.logLevel,
    live,
    notify: (notification) => io.notify(notification),
  });
  // The channel may make its signal only when a handler reads it; most never do.
  const context = new HandlerContext(
    {
      era: 'modern',
      protocolVersion: version,
      requestId: message.id,
      clientCapabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo,
      sessionId: undefined,
      trace: envelope.trace,
      auth: io.auth,
      headers: io.headers,
      closeSseStream: undefined,
      inputResponses,
      inputResponse: inputResponseReader(version as ModernVersion, inputResponses, retry.asked),
      state: retry.state,
    },
    reporter,
    io,
  );
  const task =
    method === 'tools/call'
      ? startToolTask(server, parsed.value, context, retry.asked, io)
      : undefined;
  const outcome =
    task === undefined
      ? await callOperation(server.operations, method, parsed.value, context)
      : await task;
  if (outcome.kind === 'task') return outcome.result;
  if (outcome.kind === 'input') {
    const asking = {
      method,
      params: parsed.value,
      clientCapabilities: envelope.clientCapabilities,
      principal,
    };
    return inputRequiredResult(server, asking, outcome.input, retry.round + 1);
  }
  return completeModernResult(server, outcome.result, outcome.cache);
}
