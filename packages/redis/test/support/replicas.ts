/** Twofold servers over HTTP that share their state through one Redis, as replicas would. */
import { InputRequired, McpServer } from '@twofold/server/experimental';
import { serveHttp } from '@twofold/server/node';
import type { ServedEndpoint } from '@twofold/transports/node';
import type { Redis } from 'ioredis';
import { RedisChangeBus } from '../../src/change-bus';
import { RedisEventStore } from '../../src/event-store';
import { RedisReplayGuard } from '../../src/replay-guard';

/** The request-state key every replica shares (tests only). */
export const SHARED_KEY = 'a test key shared by every replica, 32+ bytes long';

/** One replica: its server, endpoint and bus. */
export interface Replica {
  server: McpServer;
  endpoint: ServedEndpoint;
  bus: RedisChangeBus;
  close(): Promise<void>;
}

/** A greeting tool that asks for the user's name first (one input round). */
function registerGreet(server: McpServer): void {
  server.registerTool({
    name: 'greet',
    handler: (_args, context) => {
      const answer = context.inputResponses?.name as { content?: { name?: string } } | undefined;
      if (answer === undefined) {
        throw new InputRequired({
          name: {
            method: 'elicitation/create',
            params: {
              message: 'What is your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
            },
          },
        });
      }
      return `Hello, ${answer.content?.name ?? 'stranger'} from ${server.serverInfo.name}!`;
    },
  });
}

/** Serves a replica named `name` on a free loopback port, its stores on `redis`. */
export async function startReplica(name: string, redis: Redis, channel: string): Promise<Replica> {
  const bus = await RedisChangeBus.connect(redis, { channel });
  const server = new McpServer({
    name,
    version: '1.0.0',
    requestState: { key: SHARED_KEY, replayGuard: new RedisReplayGuard(redis) },
    listen: { bus },
  });
  registerGreet(server);
  const endpoint = await serveHttp(server, {
    port: 0,
    legacy: { eventStore: new RedisEventStore(redis) },
  });
  return {
    server,
    endpoint,
    bus,
    close: async () => {
      await endpoint.close();
      await bus.close();
    },
  };
}
