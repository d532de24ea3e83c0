/**
 * The manager beyond stdio fixtures: an HTTP server watched by liveness checks (stopped, then
 * back on the same port), an authorization failure that no restart can mend, and twofold's own
 * everything server (stdio, from source) beside `@modelcontextprotocol/server-everything`,
 * clashing on tool names in one registry.
 */
import { McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callSignal,
  envRef,
  eventsOf,
  managerFor,
  pidOf,
  QUICK_RESTART,
  referenceEverything,
  textOf,
  twofoldEverything,
  until,
  useManagers,
} from './support';

useManagers();

const endpoints: ServedEndpoint[] = [];
afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.close().catch(() => undefined);
});

function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool({
    name: 'forecast',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    handler: (args: Record<string, unknown>) => `sunny in ${String(args.city)}`,
  });
  return server;
}

/** Serves `server` on 127.0.0.1 (a given port to come back on), requiring a bearer token. */
async function serveWeather(server: McpServer, port = 0, token = 'right'): Promise<ServedEndpoint> {
  const handler = createServerHttpHandler(server);
  const endpoint = await serve(
    async (request) =>
      request.headers.get('authorization') === `Bearer ${token}`
        ? handler(request)
        : new Response('no', { status: 401 }),
    { port },
  );
  endpoints.push(endpoint);
  return endpoint;
}

describe('ServerManager with HTTP and reference servers', { timeout: 40_000 }, () => {
  it('an HTTP server that goes away is noticed by its liveness check and comes back', async () => {
    const server = weatherServer();
    const first = await serveWeather(server);
    const m = await managerFor(
      {
        mcpServers: {
          weather: {
            url: first.url.href,
            headers: { Authorization: `Bearer ${envRef('WEATHER_TOKEN')}` },
            healthIntervalMs: 100,
            restart: { ...QUICK_RESTART, maxFailures: 50, maxDelayMs: 100 },
          },
        },
      },
      { env: { WEATHER_TOKEN: 'right' } },
    );
    await m.manager.start();
    expect(m.manager.serverStatus('weather')).toMatchObject({
      state: 'running',
      era: 'modern',
      transport: 'streamable-http',
    });
    const forecast = m.manager.registry.get('forecast');
    expect(textOf(await forecast?.invoke({ city: 'Oslo' }, { signal: callSignal() }))).toBe(
      'sunny in Oslo',
    );

    await first.close();
    await until(() => eventsOf(m, 'health-check-failed').length > 0, 'the failed check');
    await until(() => m.manager.registry.get('forecast') === undefined, 'its tools to go');
    expect(m.manager.serverStatus('weather')?.state).toMatch(/backoff|starting/);

    await serveWeather(server, first.url.port === '' ? 0 : Number(first.url.port));
    await until(() => m.manager.serverStatus('weather')?.state === 'running', 'it to be back');
    const back = m.manager.registry.get('forecast');
    expect(textOf(await back?.invoke({ city: 'Rome' }, { signal: callSignal() }))).toBe(
      'sunny in Rome',
    );
  });

  it('an authorization failure is not retried', async () => {
    const endpoint = await serveWeather(weatherServer());
    const m = await managerFor(
      { mcpServers: { weather: { url: endpoint.url.href, restart: QUICK_RESTART } } },
      {},
    );
    const [status] = await m.manager.start();
    expect(status).toMatchObject({ state: 'failed' });
    expect(eventsOf(m, 'server-failed')).toMatchObject([{ phase: 'start', retry: false }]);
    expect(eventsOf(m, 'restart-scheduled')).toEqual([]);
    expect(m.lines).toHaveLength(1);
  });

  it("twofold's everything server and server-everything share one registry", async () => {
    const m = await managerFor({
      mcpServers: {
        twofold: twofoldEverything(),
        reference: referenceEverything(),
      },
    });
    const status = await m.manager.start();
    expect(status.map((s) => [s.name, s.state, s.era])).toEqual([
      ['twofold', 'running', 'modern'],
      ['reference', 'running', 'legacy'],
    ]);
    pidOf(m, 'twofold');
    pidOf(m, 'reference');
    const names = m.manager.registry.list().map((tool) => tool.name);
    expect(names.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name))).toBe(true);
    // Both offer tools of the same name: each gets its server's prefix, and calls reach it.
    const twofoldTools = names.filter((n) => n.startsWith('twofold__'));
    const referenceTools = names.filter((n) => n.startsWith('reference__'));
    const shared = twofoldTools
      .map((n) => n.slice('twofold__'.length))
      .filter((n) => referenceTools.includes(`reference__${n}`));
    expect(shared.length).toBeGreaterThan(0);
    for (const name of shared) expect(names).not.toContain(name);
    const simple = m.manager.registry.get('test_simple_text');
    expect(simple?.origin).toEqual({ server: 'twofold', tool: 'test_simple_text' });
    expect(JSON.stringify(await simple?.invoke({}, { signal: callSignal() }))).toContain('text');
    const echo = m.manager.registry.get('echo') ?? m.manager.registry.get('reference__echo');
    expect(echo?.origin?.server).toBe('reference');
    expect(
      JSON.stringify(await echo?.invoke({ message: 'both' }, { signal: callSignal() })),
    ).toContain('both');
  });
});
