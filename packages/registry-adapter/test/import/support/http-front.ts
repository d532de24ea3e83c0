/**
 * A loopback HTTP endpoint in front of a twofold server that can end its `subscriptions/listen`
 * streams the way a server shutdown does (final result, stream closed) and go on serving, and
 * that can hold listen requests: enough to drive a client through listen streams that end
 * while the server stays reachable.
 */
import type { ServerTarget } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import type { ServedServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { afterTest } from './env';

export interface HttpFront {
  target: ServerTarget;
  /** Resolves once `count` listen requests have arrived in all. */
  listensArrived(count: number): Promise<void>;
  /** Holds listen requests arriving from now on until the returned function is called. */
  holdListens(): () => void;
  /** Ends every open subscription with its final result, then serves on with a new handler. */
  restart(): Promise<void>;
}

async function isListen(request: Request): Promise<boolean> {
  if (request.method !== 'POST') return false;
  try {
    return (
      (JSON.parse(await request.clone().text()) as { method?: unknown }).method ===
      'subscriptions/listen'
    );
  } catch {
    return false;
  }
}

/** Serves `server` behind an `HttpFront` (closed after the test). */
export async function httpFront(server: ServedServer): Promise<HttpFront> {
  let handler = createServerHttpHandler(server);
  let listens = 0;
  let hold: Promise<void> | undefined;
  const arrivals = new Set<() => void>();
  const endpoint = await serve(async (request) => {
    if (await isListen(request)) {
      listens++;
      for (const wake of [...arrivals]) wake();
      if (hold) await hold;
    }
    return handler(request);
  });
  afterTest(async () => {
    await handler.close();
    await endpoint.close();
  });
  return {
    target: httpServer({ url: endpoint.url }),
    listensArrived: (count) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`listen #${count} never came`)), 5000);
        const wake = () => {
          if (listens < count) return;
          clearTimeout(timer);
          arrivals.delete(wake);
          resolve();
        };
        arrivals.add(wake);
        wake();
      }),
    holdListens: () => {
      let release!: () => void;
      hold = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        hold = undefined;
        release();
      };
    },
    restart: async () => {
      const old = handler;
      handler = createServerHttpHandler(server);
      await old.close();
    },
  };
}
