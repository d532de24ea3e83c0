/**
 * The everything server's protected mode as a process (`--http --auth-jwks … --auth-issuer …`),
 * run from source with this package's source as `@twofold/server`: the challenge and metadata
 * document, a token for its endpoint, the `--auth-scope` on `whoami`, and a clean exit.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoLeftovers, leftovers } from '../../../config/test-support/processes.ts';
import { tsxLoader } from '../../../config/test-support/servers.ts';
import {
  ISSUER,
  type JwksEndpoint,
  mint,
  type SigningKey,
  serveJwks,
  signingKey,
} from './support/auth-keys';
import { toolText } from './support/auth-server';
import { legacyPost, messagesOf, modernPost } from './support/http-posts';
import { modernParams } from './support/peer';

const MAIN = fileURLToPath(new URL('../../../apps/everything-server/src/main.ts', import.meta.url));
const APP = dirname(dirname(MAIN));
const FROM_SOURCE = new URL('./fixtures/server-from-source.mjs', import.meta.url).href;

function nodeArgs(args: string[]): string[] {
  return ['--import', tsxLoader(import.meta.url), '--import', FROM_SOURCE, MAIN, ...args];
}

interface Running {
  child: ChildProcess;
  url: URL;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the server in its own process group; resolves once it prints its URL. */
function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, nodeArgs(args), {
    cwd: APP,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  running.push(child);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (\S+)/.exec(stderr);
      if (match?.[1] !== undefined)
        resolve({ child, url: new URL(match[1]), stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`server exited (${code}):\n${stderr}`)));
  });
}

const running: ChildProcess[] = [];
let key: SigningKey;
let jwks: JwksEndpoint;

beforeAll(async () => {
  key = await signingKey('k1');
  jwks = await serveJwks([key]);
});
afterAll(() => jwks.close());
afterEach(() => {
  // A failed test must not leave its server behind.
  for (const child of running.splice(0)) {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  }
});

describe('everything-server protected mode', () => {
  it('serves /mcp as a resource server for the issuer, with whoami behind --auth-scope', async () => {
    const server = await start([
      '--http',
      '--auth-jwks',
      jwks.url,
      '--auth-issuer',
      ISSUER,
      '--auth-scope',
      'who:read',
    ]);
    const { url } = server;
    expect(url.pathname).toBe('/mcp');
    const metadataUrl = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(server.stderr()).toContain(`metadata at ${metadataUrl}`);

    const anonymous = await modernPost(url, 1, 'tools/list', modernParams());
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadataUrl}"`,
    );
    const document = await (await fetch(metadataUrl)).json();
    expect(document).toMatchObject({
      resource: url.href,
      authorization_servers: [ISSUER],
      scopes_supported: ['who:read'],
    });

    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const plain = await mint(key, { aud: url.href, sub: 'alice', scope: 'mcp' });
    const list = await modernPost(url, 2, 'tools/list', modernParams(), { headers: bearer(plain) });
    expect(list.status).toBe(200);
    const [listed] = await messagesOf(list);
    expect(JSON.stringify(listed)).toContain('"whoami"');
    const whoami = (token: string, id: number) =>
      modernPost(url, id, 'tools/call', modernParams({ name: 'whoami', arguments: {} }), {
        headers: bearer(token),
      });
    const refused = await whoami(plain, 3);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="who:read"');

    const scoped = await mint(key, { aud: url.href, sub: 'alice', scope: 'who:read' });
    expect(JSON.parse(await toolText(await whoami(scoped, 4)))).toMatchObject({
      subject: 'alice',
      scopes: ['who:read'],
    });
    const elsewhere = await mint(key, { aud: 'https://other.test/mcp', sub: 'alice' });
    expect((await whoami(elsewhere, 5)).status).toBe(401);

    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    };
    expect((await legacyPost(url, initialize, bearer(plain))).status).toBe(200);

    const pid = server.child.pid as number;
    process.kill(-pid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    expectNoLeftovers(await leftovers([pid]), 'everything-server');
  });

  it('accepts tokens for --auth-audience instead of the endpoint URL', async () => {
    const audience = 'api://everything';
    const server = await start([
      '--http',
      '--auth-jwks',
      jwks.url,
      '--auth-issuer',
      ISSUER,
      '--auth-audience',
      audience,
    ]);
    const list = async (aud: string) =>
      modernPost(server.url, 1, 'tools/list', modernParams(), {
        headers: { authorization: `Bearer ${await mint(key, { aud, sub: 'alice' })}` },
      });
    expect((await list(audience)).status).toBe(200);
    expect((await list(server.url.href)).status).toBe(401);
    const pid = server.child.pid as number;
    process.kill(-pid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    expectNoLeftovers(await leftovers([pid]), 'everything-server');
  });

  // Two starts of the server from source (tsx) one after the other: seconds each on a busy
  // machine, so the bound is for that work; nothing here waits for time.
  it('documents the flags in --help and refuses protected mode without --http', {
    timeout: 60_000,
  }, () => {
    const help = spawnSync(process.execPath, nodeArgs(['--help']), { cwd: APP, encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const flag of ['--auth-jwks', '--auth-issuer', '--auth-audience', '--auth-scope']) {
      expect(help.stdout).toContain(flag);
    }
    const stdio = spawnSync(
      process.execPath,
      nodeArgs(['--stdio', '--auth-jwks', jwks.url, '--auth-issuer', ISSUER]),
      { cwd: APP, encoding: 'utf8' },
    );
    expect(stdio.status).toBe(64);
    expect(stdio.stderr).toContain('protected mode needs --http');
  });
});
