/**
 * A legacy HTTP session the server forgot (its replica restarted or was replaced) answers 404;
 * the client starts a new session, as the legacy revisions require, and sends the request again.
 */
import { McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { describe, expect, it } from 'vitest';
import { httpServer } from '../../src/targets/http';
import { connectClient, onCleanup, useClientCleanups } from '../support/client-harness';

useClientCleanups();

/** A replica: a server of its own, so it knows only the sessions it initialized itself. */
function replica(name: string) {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool({ name: 'whoami', handler: () => name });
  return { server, handler: createServerHttpHandler(server) };
}

/** One endpoint whose replica a test replaces; collects the session ids its answers named. */
async function replaceableEndpoint() {
  let current = replica('first');
  const sessions = new Set<string>();
  const endpoint = await serve(
    async (request, context) => {
      const response = await current.handler(request, context);
      const sessionId = response.headers.get('mcp-session-id');
      if (sessionId !== null) sessions.add(sessionId);
      return response;
    },
    { port: 0 },
  );
  onCleanup(() => endpoint.close());
  return {
    url: endpoint.url,
    sessions,
    current: () => current,
    replace: (name: string) => {
      current = replica(name);
    },
  };
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('renewing a forgotten legacy session', () => {
  it('starts a new session on 404 and sends the request again', async () => {
    const endpoint = await replaceableEndpoint();
    const { client, warnings } = await connectClient(httpServer({ url: endpoint.url }), {
      era: 'legacy',
    });
    expect(textOf(await client.callTool('whoami'))).toBe('first');
    endpoint.replace('second');

    expect(textOf(await client.callTool('whoami'))).toBe('second');
    expect(endpoint.sessions.size).toBe(2);
    expect(warnings.map((w) => w.code)).toEqual(['session-renewed']);
    expect(textOf(await client.callTool('whoami'))).toBe('second');
    expect(endpoint.sessions.size).toBe(2);
  });

  it('renews once for requests that found the session gone together', async () => {
    const endpoint = await replaceableEndpoint();
    const { client } = await connectClient(httpServer({ url: endpoint.url }), { era: 'legacy' });
    endpoint.replace('second');
    const calls = Array.from({ length: 5 }, () => client.callTool('whoami'));
    for (const result of await Promise.all(calls)) expect(textOf(result)).toBe('second');
    expect(endpoint.sessions.size).toBe(2);
  });

  it('hears the new session on its GET stream: a listen goes on after renewal', async () => {
    const endpoint = await replaceableEndpoint();
    const { client } = await connectClient(httpServer({ url: endpoint.url }), { era: 'legacy' });
    const stream = client.listen({ toolsListChanged: true });
    await stream.acknowledged;
    endpoint.replace('second');
    await client.callTool('whoami');

    endpoint.current().server.registerTool({ name: 'added', handler: () => 'x' });
    expect((await stream[Symbol.asyncIterator]().next()).value).toEqual({
      type: 'toolsListChanged',
    });
    await stream.close();
  });
});
