/**
 * An authorization that takes longer than the probe timeout (a person logging in) happens
 * inside the HTTP era probe, the first request: the probe must not give up on its own clock.
 * Before, it failed the connection with REQUEST_TIMEOUT after `probeTimeoutMs`.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { InvalidTokenError, McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import type { HttpAuthorizer } from '@twofold/transports/experimental';
import { serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client';
import { httpServer } from '../../src/targets/http';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PROBE_TIMEOUT_MS = 20;
// The login outlasts the probe timeout several times over: that is the situation under test.
const LOGIN_MS = 10 * PROBE_TIMEOUT_MS;

/** Grants a token after a slow login, on the first challenge. */
function slowLogin(): HttpAuthorizer & { logins: number } {
  let token: string | undefined;
  return {
    logins: 0,
    headers: async (): Promise<Record<string, string>> =>
      token ? { Authorization: `Bearer ${token}` } : {},
    async challenge() {
      this.logins++;
      await delay(LOGIN_MS);
      token = 'granted';
      return true;
    },
  };
}

describe('authorizing inside the HTTP era probe', () => {
  it.each(['auto', 'modern'] as const)(
    'a login longer than probeTimeoutMs still connects (%s)',
    async (era) => {
      const server = new McpServer({ name: 'protected', version: '1.0.0' });
      server.registerTool({ name: 'whoami', handler: (_args, { auth }) => `${auth?.subject}` });
      const endpoint = await serve(
        createServerHttpHandler(server, {
          auth: {
            verifyToken: async (token) => {
              if (token !== 'granted') throw new InvalidTokenError();
              return { subject: 'ada', scopes: [] };
            },
            resourceMetadata: {
              resource: 'http://127.0.0.1/mcp',
              authorization_servers: ['http://127.0.0.1/issuer'],
            },
          },
        }),
        { port: 0 },
      );
      cleanups.push(() => endpoint.close());
      const auth = slowLogin();
      const client = await McpClient.connect(
        httpServer({ url: new URL('/mcp', endpoint.url), auth }),
        {
          clientInfo: { name: 'probe-auth', version: '1.0.0' },
          era,
          probeTimeoutMs: PROBE_TIMEOUT_MS,
        },
      );
      cleanups.push(() => client.close());
      expect(client.era).toBe('modern');
      expect(auth.logins).toBe(1);
      const result = await client.callTool('whoami');
      expect(result.content).toEqual([{ type: 'text', text: 'ada' }]);
    },
  );
});
