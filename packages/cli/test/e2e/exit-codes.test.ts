/**
 * The documented exit codes, one failure class each, through the built binary: usage
 * mistakes, bad input data, an unreachable server, a timeout, a protocol error, an
 * authorization failure, a broken mcp.json, a tool error, and one-line errors on stderr.
 */

import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, freshCache, twofold } from './support';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An HTTP endpoint that answers every request with `status`. */
async function answering(status: number): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain' }).end('no');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<string> {
  const url = await answering(200);
  const server = servers.pop();
  await new Promise((resolve) => server?.close(resolve));
  return url;
}

const HANG = [process.execPath, '-e', 'process.stdin.resume()'];

describe('exit codes', { timeout: 30_000 }, () => {
  it.each([
    ['an unknown command', ['frobnicate'], 'unknown command "frobnicate"'],
    ['a misspelt command', ['discovr'], 'did you mean "discover"'],
    ['an unknown subcommand', ['tools', 'lst'], 'has no subcommand "lst": list, call'],
    ['a bad flag', ['tools', 'list', '--urll', 'x'], 'did you mean "--url"'],
    ['no server given', ['tools', 'list'], 'needs a server'],
    [
      'two servers given',
      ['tools', 'list', '--url', 'http://a', '--stdio', 'b'],
      'give one server',
    ],
    [
      'a bad --era',
      ['discover', '--era', 'future', '--', 'x'],
      '--era must be auto, modern or legacy',
    ],
    ['an unterminated quote', ['discover', '--stdio', '"node server.js'], 'unterminated " quote'],
  ])('64 for %s', async (_what, args, message) => {
    const run = await twofold(args);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
  });

  it('65 for invalid JSON arguments, a value the schema refuses, an unknown tool', async () => {
    const bad = await twofold(['tools', 'call', 'add', '--args', '{a:1}', '--', ...DEMO]);
    expect(bad.code).toBe(65);
    expect(bad.stderr).toMatch(/--args is not valid JSON/);
    const typed = await twofold(['tools', 'call', 'add', 'a=one', 'b=2', '--', ...DEMO]);
    expect(typed).toMatchObject({ code: 65 });
    expect(typed.stderr).toContain('argument a must be a number');
    const unknown = await twofold(['tools', 'call', 'ad', '--', ...DEMO]);
    expect(unknown.code).toBe(65);
    expect(unknown.stderr).toContain('the server has no tool "ad" (did you mean "add"?)');
  });

  it('69 for an unreachable URL and for a server that cannot start', async () => {
    const refused = await twofold(['discover', '--url', await closedPort()]);
    expect(refused.code).toBe(69);
    const missing = await twofold(['discover', '--', 'twofold-no-such-program']);
    expect(missing.code).toBe(69);
    const crashing = await twofold(['discover', '--', process.execPath, '-e', 'process.exit(3)']);
    expect(crashing.code).toBe(69);
    expect(crashing.stderr).toContain('code 3');
  });

  it('75 for a server that never answers within --timeout', async () => {
    const run = await twofold(['discover', '--timeout', '800', '--', ...HANG]);
    expect(run.code).toBe(75);
  });

  it('76 for a server that breaks the protocol (HTTP 400 without an MCP error)', async () => {
    const run = await twofold(['discover', '--era', 'modern', '--url', await answering(400)]);
    expect(run.code).toBe(76);
  });

  it('77 when the server wants authorization, naming the login to run', async () => {
    const url = await answering(401);
    const run = await twofold(['discover', '--url', url]);
    expect(run.code).toBe(77);
    expect(run.stderr).toContain('HTTP 401');
    expect(run.stderr).toContain(`run \`twofold login --url ${url}\``);
    // With its own Authorization header, the command does no OAuth: the 401 is the answer.
    const given = await twofold(['discover', '--url', url, '--header', 'Authorization: Bearer x']);
    expect(given.code).toBe(77);
    expect(given.stderr).toContain('HTTP 401');
    expect(given.stderr).not.toContain('twofold login');
  });

  it('78 for a broken mcp.json or a server it does not have', async () => {
    const dir = freshCache();
    const config = join(dir, 'mcp.json');
    await writeFile(config, JSON.stringify({ mcpServers: { demo: { comand: 'node' } } }));
    const broken = await twofold(['discover', '--server', 'demo', '--config', config]);
    expect(broken.code).toBe(78);
    expect(broken.stderr).toContain('did you mean "command"');
    await writeFile(config, JSON.stringify({ mcpServers: { demo: { command: 'node' } } }));
    const absent = await twofold(['discover', '--server', 'other', '--config', config]);
    expect(absent.code).toBe(78);
    expect(absent.stderr).toContain('no server "other"');
  });

  it('0 for --help and --version, on every command', async () => {
    const help = await twofold(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['tools call', 'bridge', 'doctor', 'config add', 'listen', 'demo']) {
      const run = await twofold([...command.split(' '), '--help']);
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toContain('Examples');
    }
    const version = await twofold(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
