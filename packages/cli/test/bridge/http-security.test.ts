/**
 * The HTTP bridge's guards: it listens on loopback only, and refuses requests from a browser
 * origin other than loopback (DNS-rebinding protection) unless that origin is allowed.
 */
import { httpServer } from '@twofold/client/node';
import { buildRequestMeta } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { startHttpBridge } from '../../src/bridge/index';
import { BRIDGE_TIMEOUT, loopbackBridge, useBridgeEnv } from './support/bridge-env';
import { httpUpstream } from './support/http-upstream';

useBridgeEnv();

/** A modern `server/discover` POST from `origin`; resolves with the HTTP status. */
async function discoverFrom(url: URL, origin: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      origin,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} }),
      },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

async function bridge(allowedOrigins?: readonly string[]) {
  return loopbackBridge({
    upstream: httpServer({ url: await httpUpstream() }),
    ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
  });
}

describe('HTTP bridge guards', () => {
  it('refuses to listen beyond loopback, before reaching the upstream', async () => {
    await expect(
      startHttpBridge({
        upstream: httpServer({ url: 'http://127.0.0.1:9/' }),
        listen: { host: '0.0.0.0', port: 0 },
      }),
    ).rejects.toThrow(/loopback only/);
  });

  it('accepts loopback origins and refuses others by default', {
    timeout: BRIDGE_TIMEOUT,
  }, async () => {
    const { url } = await bridge();
    expect(await discoverFrom(url, `http://localhost:${url.port}`)).toBe(200);
    expect(await discoverFrom(url, 'https://attacker.example')).toBe(403);
  });

  it('accepts exactly the allowed origins when given', { timeout: BRIDGE_TIMEOUT }, async () => {
    const { url } = await bridge(['https://app.example']);
    expect(await discoverFrom(url, 'https://app.example')).toBe(200);
    expect(await discoverFrom(url, 'https://attacker.example')).toBe(403);
  });
});
