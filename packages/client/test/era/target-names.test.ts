/**
 * Connect errors name a target as people know it, not by its key: an HTTP endpoint by origin and
 * path (its userinfo and query may hold credentials), a stdio server by its command, or by the
 * `name` a host gave.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client';
import { httpServer, stdioServer } from '../../src/node';

const options = { clientInfo: { name: 'names-test', version: '1.0.0' } };

async function failure(connecting: Promise<unknown>): Promise<LocalError> {
  const error = await connecting.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalError);
  return error as LocalError;
}

describe('target names in connect errors', () => {
  it('an HTTP endpoint by origin and path, its key kept in details', async () => {
    const server = createServer((_request, response) => response.writeHead(500).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const target = httpServer({ url: `${origin}/mcp?token=s3cret` });
      const error = await failure(McpClient.connect(target, options));
      expect(error.message).toContain(`Era detection for ${origin}/mcp:`);
      expect(error.message).not.toContain('s3cret');
      expect(error.details?.serverKey).toBe(target.key);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a stdio server by the name its host gave', async () => {
    const hanging = stdioServer({
      command: process.execPath,
      args: ['-e', 'process.stdin.resume()', '--', '--token=s3cret'],
    });
    expect(hanging.name).toBe(process.execPath);
    const error = await failure(
      McpClient.connect(
        { ...hanging, name: 'the named server' },
        { ...options, connectTimeoutMs: 500 },
      ),
    );
    expect(error.message).toContain('Connecting to the named server timed out');
    expect(error.message).not.toContain('s3cret');
  });
});
