/**
 * The modern session against a real twofold `McpServer`: facts from discover, the `_meta`
 * envelope of every request, validated results, `input_required` passed through, errors,
 * request-scoped notifications, ping and close.
 */
import {
  type InputRequest,
  type JsonRpcRequest,
  LATEST_VERSION,
  META_KEYS,
  ProtocolError,
} from '@twofold/protocol/experimental';
import { InputRequired, McpServer, type RequestContext } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import { serveModern, useModernCleanups } from '../support/modern-session';

useModernCleanups();

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const confirm: InputRequest = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Sure?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  },
};

function createServer() {
  const server = new McpServer({
    name: 'modern-test-server',
    version: '2.0.0',
    instructions: 'Use echo.',
  });
  const contexts: RequestContext[] = [];
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: async (args: { text?: string }, context) => {
      contexts.push(context);
      await context.log('info', `echoing ${args.text}`);
      return args.text ?? '';
    },
  });
  server.registerTool({ name: 'confirm', handler: () => new InputRequired({ confirm }) });
  return { server, contexts };
}

/** The requests the server received for `method`. */
function requestsOf(received: unknown[], method: string): JsonRpcRequest[] {
  return received.filter(
    (m): m is JsonRpcRequest =>
      typeof m === 'object' && m !== null && 'id' in m && (m as JsonRpcRequest).method === method,
  );
}

describe('modern session with a real server', () => {
  it('takes its facts and verdict from the discover result', async () => {
    const { server } = createServer();
    const { session, discover } = await serveModern(server);
    expect(session.facts).toEqual({
      serverInfo: server.serverInfo,
      capabilities: discover.capabilities,
      instructions: 'Use echo.',
    });
    expect(session.facts.capabilities.tools).toBeDefined();
    expect(session.verdict).toEqual({
      era: 'modern',
      protocolVersion: LATEST_VERSION,
      transport: 'stream',
      serverKey: 'test-server',
      discover,
    });
  });

  it('sends the envelope, then extra meta, then the caller’s own _meta', async () => {
    const { server, contexts } = createServer();
    const { session, received, hooks } = await serveModern(server, {
      hooks: {
        clientInfo: { name: 'envelope-client', version: '3.1.0' },
        capabilities: { elicitation: { form: {} } },
        logLevel: 'debug',
        trace: { traceparent: TRACEPARENT },
      },
    });
    const result = await session.request(
      'tools/call',
      { name: 'echo', arguments: { text: 'hi' }, _meta: { 'com.example/order': 'params' } },
      {
        meta: {
          'com.example/order': 'options',
          'com.example/extra': 42,
          [META_KEYS.logLevel]: 'info',
        },
      },
    );
    expect(result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'hi' }],
    });

    const [sent] = requestsOf(received, 'tools/call');
    expect(sent?.params).toEqual({
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: {
        [META_KEYS.protocolVersion]: LATEST_VERSION,
        [META_KEYS.clientCapabilities]: { elicitation: { form: {} } },
        [META_KEYS.clientInfo]: { name: 'envelope-client', version: '3.1.0' },
        // options.meta overrides the envelope; params._meta overrides both.
        [META_KEYS.logLevel]: 'info',
        traceparent: TRACEPARENT,
        'com.example/order': 'params',
        'com.example/extra': 42,
      },
    });
    expect(contexts[0]?.clientInfo).toEqual({ name: 'envelope-client', version: '3.1.0' });
    expect(contexts[0]?.clientCapabilities).toEqual({ elicitation: { form: {} } });
    // The request-scoped log message (untagged) reaches the hooks.
    expect(hooks.notifications).toEqual([
      {
        method: 'notifications/message',
        params: expect.objectContaining({ level: 'info', data: 'echoing hi' }),
      },
    ]);
  });

  it('prefers the call’s trace over the hooks’ one and adds params when there are none', async () => {
    const { server } = createServer();
    const other = '00-11111111111111111111111111111111-2222222222222222-00';
    const { session, received } = await serveModern(server, {
      hooks: { trace: { traceparent: TRACEPARENT } },
    });
    await session.request('tools/list', undefined, { trace: { traceparent: other } });
    const [sent] = requestsOf(received, 'tools/list');
    expect(sent?.params?._meta).toMatchObject({ traceparent: other });
    expect(sent?.params?._meta).not.toHaveProperty(META_KEYS.logLevel);
  });

  it('returns validated results, and input_required as it is', async () => {
    const { server } = createServer();
    const { session } = await serveModern(server, {
      hooks: { capabilities: { elicitation: { form: {} } } },
    });
    const list = await session.request('tools/list', undefined);
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect((list.tools as { name: string }[]).map((t) => t.name)).toEqual(['confirm', 'echo']);

    const interim = await session.request('tools/call', { name: 'confirm' });
    expect(interim).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm },
      requestState: expect.any(String),
    });
  });

  it('rejects error responses with ProtocolError', async () => {
    const { server } = createServer();
    const { session } = await serveModern(server);
    // No elicitation declared: the server may not ask, and says so with -32021.
    const missing = await session.request('tools/call', { name: 'confirm' }).catch((e) => e);
    expect(missing).toBeInstanceOf(ProtocolError);
    expect(missing.code).toBe(-32021);
    const unknown = await session.request('prompts/get', { name: 'nope' }).catch((e) => e);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect(unknown.code).toBe(-32601);
  });

  it('pings with server/discover, and close() ends the connection quietly', async () => {
    const { server } = createServer();
    const { session, received, connection, hooks } = await serveModern(server);
    await session.ping();
    expect(requestsOf(received, 'server/discover')).toHaveLength(2);
    await session.close();
    expect(connection.isClosed).toBe(true);
    expect(hooks.closes).toEqual([undefined]);
  });
});
