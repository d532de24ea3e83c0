/**
 * `twofold login` / `logout` through the built binary, against the test authorization server
 * and a protected everything server: the browser flow end to end (a fake browser logs in and
 * lands on the loopback listener), the stored token reused by the next command, logout, exit 77
 * with the login command to run when there is no terminal, client credentials, and `--verbose`
 * traces without a token, code or secret in them.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthWorld,
  loginSetup,
  type ProtectedEndpoint,
  SERVICE_CLIENT,
  startAuthWorld,
  tokenFile,
} from './auth-support';
import { DEMO, jsonOf, twofold } from './support';

let world: AuthWorld;
let mcp: ProtectedEndpoint;

beforeAll(async () => {
  world = await startAuthWorld();
  mcp = await world.protect();
}, 120_000);
afterAll(() => world?.close());

const POSIX = process.platform !== 'win32';

describe('twofold login', { timeout: 180_000 }, () => {
  it('logs in through the browser, and later commands use the stored token', async () => {
    const setup = loginSetup();
    const login = await twofold(['login', '--url', mcp.url], { env: setup.env });
    expect(login.stderr).toContain(`${world.as.issuer}/auth?`);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`logged in to ${mcp.url} at ${world.as.issuer}`);
    const [, page] = await setup.pages(1);
    expect(page).toMatchObject({ step: 'page', status: 200 });
    expect(page?.page).toContain('You can close this tab');

    const { path, name, record } = tokenFile(setup.dir);
    expect(name).toMatch(/^[0-9a-f]{64}\.json$/);
    expect(record).toMatchObject({ version: 1, issuer: world.as.issuer, resource: mcp.url });
    expect(record.credentials.tokens?.refreshToken).toBeTypeOf('string');
    if (POSIX) {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(setup.dir).mode & 0o777).toBe(0o700);
    }

    // No browser this time (none is configured, and there is no terminal): the stored token.
    const { TWOFOLD_BROWSER: _, ...noBrowser } = setup.env;
    const list = await twofold(['tools', 'list', '--url', mcp.url, '--json'], { env: noBrowser });
    expect(list.code, list.stderr).toBe(0);
    expect(jsonOf<{ tools: { name: string }[] }>(list).tools.map((t) => t.name)).toContain('add');
    expect(mcp.accepted).toContain(record.credentials.tokens?.accessToken);
    expect(await setup.visits()).toHaveLength(2);

    const again = await twofold(['login', '--url', mcp.url], { env: noBrowser });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('/auth?');
    expect(tokenFile(setup.dir).record.credentials.tokens?.accessToken).toBe(
      record.credentials.tokens?.accessToken,
    );

    const logout = await twofold(['logout', '--url', mcp.url], { env: setup.env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toContain(`logged out of ${mcp.url} at ${world.as.issuer}`);
    expect(() => tokenFile(setup.dir)).toThrow(/found $/);
    const twice = await twofold(['logout', '--url', mcp.url], { env: setup.env });
    expect(twice).toMatchObject({ code: 0, stdout: `no tokens were stored for ${mcp.url}\n` });
  });

  it('without a terminal, a command that needs a login exits 77 naming the login to run', async () => {
    const setup = loginSetup();
    for (const args of [
      ['tools', 'list', '--url', mcp.url],
      ['tools', 'list', '--url', mcp.url, '--json', '--scope', 'mcp:tools offline_access'],
    ]) {
      const run = await twofold(args, { env: setup.env });
      expect(run.code).toBe(77);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`answered HTTP 401: it needs a login at ${world.as.issuer}`);
      expect(lines[0]).toContain(`run \`twofold login --url ${mcp.url}`);
    }
    expect(await setup.visits()).toEqual([]);
  });

  it('logs in to a server of the mcp.json by its name', async () => {
    const setup = loginSetup();
    const config = join(setup.dir, '..', 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { guarded: { url: mcp.url } } }));
    const target = ['--server', 'guarded', '--config', config];
    const before = await twofold(['tools', 'list', ...target], { env: setup.env });
    expect(before.code).toBe(77);
    expect(before.stderr).toContain(`"guarded" (${mcp.url}) answered HTTP 401`);
    expect(before.stderr).toContain(`run \`twofold login --server guarded --config ${config}\``);
    const login = await twofold(['login', ...target], { env: setup.env });
    expect(login.code, login.stderr).toBe(0);
    const after = await twofold(['tools', 'call', 'add', 'a=1', 'b=1', ...target], {
      env: setup.env,
    });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('2');
  });

  it('says that a stdio server has nothing to log in to', async () => {
    const run = await twofold(['login', '--', ...DEMO]);
    expect(run.code).toBe(64);
    expect(run.stderr).toMatch(/is a stdio server: it takes credentials from its environment/);
    const help = await twofold(['login', '--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--client-id', '--client-secret', '--scope', '--grant', '--force'])
      expect(help.stdout).toContain(flag);
  });

  it('gets a token with client credentials, no browser and no person', async () => {
    const setup = loginSetup();
    const env = { ...setup.env, TWOFOLD_CLIENT_SECRET: SERVICE_CLIENT.secret };
    const args = [
      '--url',
      mcp.url,
      '--grant',
      'client-credentials',
      '--client-id',
      SERVICE_CLIENT.id,
    ];
    const run = await twofold(['tools', 'call', 'add', 'a=1', 'b=2', ...args, '--verbose'], {
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('3');
    const { record } = tokenFile(setup.dir);
    const token = record.credentials.tokens?.accessToken as string;
    expect(mcp.accepted).toContain(token);
    for (const secret of [SERVICE_CLIENT.secret, token]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
    expect(run.stderr).toContain('grant_type=client_credentials');
    expect(await setup.visits()).toEqual([]);
    // The next run reuses it; a missing secret is a usage error, not a login.
    const second = await twofold(['tools', 'list', ...args], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(mcp.accepted.filter((t) => t === token).length).toBeGreaterThan(1);
    const bare = await twofold(['tools', 'list', ...args], { env: setup.env });
    expect(bare.code).toBe(64);
    expect(bare.stderr).toContain('needs --client-id and a secret');
  });

  it('masks tokens, codes and secrets in --verbose traces', async () => {
    const setup = loginSetup();
    const login = await twofold(['login', '--url', mcp.url, '--verbose'], { env: setup.env });
    expect(login.code, login.stderr).toBe(0);
    const list = await twofold(['tools', 'list', '--url', mcp.url, '--verbose'], {
      env: setup.env,
    });
    expect(list.code, list.stderr).toBe(0);
    const visits = await setup.pages(1);
    const code = new URL(visits[0]?.redirect as string).searchParams.get('code') as string;
    const { record } = tokenFile(setup.dir);
    const secrets = [
      code,
      record.credentials.tokens?.accessToken,
      record.credentials.tokens?.refreshToken,
      record.credentials.client?.clientSecret,
    ].filter((s): s is string => typeof s === 'string' && s.length > 0);
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    for (const run of [login, list]) {
      for (const secret of secrets) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
    }
    // The trace is there, with the credentials masked.
    expect(login.stderr).toMatch(/# oauth ⇢\d+ POST \S+ .*code=\*\*\*/);
    expect(login.stderr).toContain('"access_token":"***"');
    expect(login.stderr).toContain('"refresh_token":"***"');
    // The stored token is found before the first MCP request, by the login probe's 401.
    expect(list.stderr).toMatch(/# oauth ⇠\d+ 401 \[www-authenticate: Bearer /);
  });
});
