/**
 * What errors say, through the built binary: the server named as it was typed (never a cache
 * digest) and redacted; a 403 that is a refusal (a Host check) told apart from authorization,
 * with what the server said; a feature the server does not declare said in words; and URL
 * credentials sent as Basic authorization, never printed.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, jsonOf, twofold } from './support';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An endpoint answering every request with 403 (and `challenge`, if any); it keeps what it saw. */
async function forbidding(challenge?: string) {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(403, {
      'content-type': 'text/plain',
      ...(challenge === undefined ? {} : { 'www-authenticate': challenge }),
    });
    // What the official SDK's DNS-rebinding protection says, with a terminal escape in it.
    response.end(`Access is only allowed at localhost:3111\u001b[31m\n${'x'.repeat(2000)}`);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

const TOOLS_ONLY = [
  process.execPath,
  fileURLToPath(new URL('./fixtures/tools-only-server.mjs', import.meta.url)),
];

describe('errors people can read', { timeout: 30_000 }, () => {
  it('a 403 without a scope challenge is a refusal (69), quoting the server', async () => {
    const { port } = await forbidding();
    const run = await twofold(['tools', 'list', '--url', `http://127.0.0.1:${port}/mcp`]);
    expect(run.code).toBe(69);
    const line = run.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain(`http://127.0.0.1:${port}/mcp: HTTP 403`);
    expect(line).toContain('not an authorization problem');
    expect(line).toContain('"Access is only allowed at localhost:3111');
    expect(line).not.toContain('\u001b');
    expect(line).not.toContain('x'.repeat(250));
    expect(line).not.toContain('cli:');
  });

  it('a 403 asking for more scope is authorization (77)', async () => {
    const { port } = await forbidding('Bearer error="insufficient_scope", scope="admin"');
    const run = await twofold([
      'tools',
      'list',
      '--url',
      `http://127.0.0.1:${port}/mcp`,
      '--header',
      'Authorization: Bearer held',
    ]);
    expect(run.code).toBe(77);
    expect(run.stderr).not.toContain('not an authorization problem');
  });

  it('sends URL credentials as Basic authorization and never prints them or query values', async () => {
    const { port, seen } = await forbidding();
    const url = `http://ada:pa55word@127.0.0.1:${port}/mcp?api_key=k3y-value`;
    const run = await twofold(['discover', '--json', '--verbose', '--url', url]);
    expect(run.code).toBe(69);
    expect(seen[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('ada:pa55word').toString('base64')}`,
    );
    expect(seen[0]?.url).toBe('/mcp?api_key=k3y-value');
    const output = `${run.stdout}${run.stderr}`;
    expect(run.stderr).toContain(`http://***@127.0.0.1:${port}/mcp?api_key=***`);
    for (const secret of ['pa55word', 'k3y-value', 'ada:']) expect(output).not.toContain(secret);
  });

  it('names a stdio server by its redacted command line, in errors and in --json', async () => {
    const hang = [
      process.execPath,
      '-e',
      'process.stdin.resume()',
      '--',
      '--api-key=s3cret',
      '--token',
    ];
    const timedOut = await twofold(['discover', '--timeout', '800', '--', ...hang, 't0ken']);
    expect(timedOut.code).toBe(75);
    expect(timedOut.stderr).toContain('Connecting to ');
    expect(timedOut.stderr).toContain('--api-key=*** --token ***');
    expect(timedOut.stderr).not.toMatch(/s3cret|t0ken|cli:/);
    const found = await twofold(['discover', '--json', '--', ...DEMO, '--api-key=s3cret']);
    expect(found.code).toBe(0);
    expect(jsonOf(found).target).toMatch(/^stdio: .* --api-key=\*\*\*$/);
    expect(found.stdout).not.toContain('s3cret');
  });

  it.each([
    ['resources', 'list'],
    ['resources', 'templates'],
    ['prompts', 'list'],
  ])('%s %s on a server that declares none says so (69)', async (command, verb) => {
    const run = await twofold([command, verb, '--', ...TOOLS_ONLY]);
    expect(run.code).toBe(69);
    expect(run.stderr.trim()).toMatch(new RegExp(`^twofold: this server declares no ${command}`));
  });
});
