import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { connectRedisState } from '@twofold/redis/experimental';
import { McpServer } from '@twofold/server/experimental';
import { serveHttp } from '@twofold/server/node';
import { Redis } from 'ioredis';

// Two replicas of one endpoint (in one process here): one Redis, one request-state key.
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const requestStateKey = process.env.REQUEST_STATE_KEY ?? 'the same secret on every replica';
async function replica(name: string) {
  const shared = await connectRedisState(redis, { requestStateKey });
  const server = new McpServer({ name, version: '1.0.0', ...shared.serverOptions });
  server.registerTool({ name: 'ping', handler: () => 'pong' });
  const endpoint = await serveHttp(server, { port: 0, legacy: shared.legacyOptions });
  return { server, shared, endpoint };
}
const [a, b] = [await replica('a'), await replica('b')];

// A client of replica a hears of a tool that replica b adds.
const client = await McpClient.connect(httpServer({ url: a.endpoint.url }), {
  clientInfo: { name: 'my-app', version: '1.0.0' },
});
const changes = client.listen({ toolsListChanged: true });
await changes.acknowledged;
b.server.registerTool({ name: 'time', handler: () => new Date().toISOString() });
for await (const change of changes) {
  console.log(`heard on a: ${change.type}`);
  break;
}
await client.close();
for (const { endpoint, shared } of [a, b]) {
  await endpoint.close();
  await shared.close();
}
redis.disconnect();
