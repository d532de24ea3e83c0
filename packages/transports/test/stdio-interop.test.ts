/**
 * The stdio client drives servers built by others: a server on the official SDK 2.4.0 (served
 * with its dual-era `serveStdio`, and hand-wired to its `StdioServerTransport`) and the
 * reference `@modelcontextprotocol/server-everything`. Each gets the probe a dual-era client
 * sends first (`server/discover` with modern `_meta`) — the observed answers are pinned, so a
 * change of behaviour upstream is noticed — and then the legacy 2025-11-25 handshake and a tool
 * call, with raw JSON-RPC messages over this transport.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  buildRequestMeta,
  classifyStdioProbe,
  type JsonRpcMessage,
  type ProbeObservation,
} from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioClientTransportOptions } from '../src/node';
import {
  fixtureServer,
  type Recorder,
  record,
  resultOf,
  SpawnTracker,
} from './fixtures/stdio/harness';

const tracker = new SpawnTracker();
afterEach(async () => {
  expect(await tracker.cleanup(), 'processes left alive').toEqual([]);
});

function everythingServer(): StdioClientTransportOptions {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  const entry = join(dirname(manifest), bin['mcp-server-everything'] as string);
  return { command: process.execPath, args: [entry, 'stdio'] };
}

const clientInfo = { name: 'twofold-interop-test', version: '0.0.0' };
const modernMeta = buildRequestMeta({
  protocolVersion: '2026-07-28',
  clientCapabilities: {},
  clientInfo,
});

interface Case {
  name: string;
  options: () => StdioClientTransportOptions;
  serverName: string;
  tool: { name: string; arguments: Record<string, unknown>; text: string };
  /** What the server answered to the probe when these tests were written. */
  probe: { verdict: 'modern' | 'legacy'; errorCode?: number };
}

const cases: Case[] = [
  {
    name: '@modelcontextprotocol/server 2.4.0 (serveStdio)',
    options: () => fixtureServer('official-server.mjs'),
    serverName: 'official-fixture',
    tool: { name: 'add', arguments: { a: 2, b: 3 }, text: '5' },
    probe: { verdict: 'modern' },
  },
  {
    name: '@modelcontextprotocol/server 2.4.0 (hand-wired StdioServerTransport)',
    options: () => fixtureServer('official-server.mjs', ['--hand-wired']),
    serverName: 'official-fixture',
    tool: { name: 'add', arguments: { a: 2, b: 3 }, text: '5' },
    probe: { verdict: 'legacy', errorCode: -32601 },
  },
  {
    name: '@modelcontextprotocol/server-everything',
    options: everythingServer,
    serverName: 'mcp-servers/everything',
    tool: { name: 'echo', arguments: { message: 'héllo 🌍' }, text: 'Echo: héllo 🌍' },
    probe: { verdict: 'legacy', errorCode: -32601 },
  },
];

async function spawnServer(options: StdioClientTransportOptions) {
  const stderr: string[] = [];
  const transport = tracker.spawn({
    ...options,
    stderr: (chunk) => stderr.push(chunk),
    closeTimeouts: { stdinEndMs: 1000, sigtermMs: 1000 },
  });
  const rec = record(transport);
  await transport.start();
  return { transport, rec, stderr };
}

async function legacySession(
  rec: Recorder,
  transport: { send(m: JsonRpcMessage): Promise<void> },
  c: Case,
) {
  const init = await rec.request(1, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo,
  });
  expect(init).toMatchObject({
    result: { protocolVersion: '2025-11-25', serverInfo: { name: c.serverName } },
  });
  await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const list = resultOf<{ tools: { name: string }[] }>(await rec.request(2, 'tools/list'));
  expect(list.tools.map((tool) => tool.name)).toContain(c.tool.name);
  const call = await rec.request(3, 'tools/call', {
    name: c.tool.name,
    arguments: c.tool.arguments,
  });
  expect(call).toMatchObject({ result: { content: [{ type: 'text', text: c.tool.text }] } });
}

describe.each(cases)('stdio client interop: $name', (c) => {
  it('runs the legacy handshake, lists tools and calls one', { timeout: 20_000 }, async () => {
    const { transport, rec } = await spawnServer(c.options());
    await legacySession(rec, transport, c);
    await transport.close();
    // Each of them exits by itself when its stdin is closed: no signal needed.
    expect(transport.exitInfo).toMatchObject({ exitCode: 0, signal: null });
    expect(rec.errors).toEqual([]);
    expect(rec.closes).toBe(1);
  });

  it('answers the dual-era probe as recorded, then serves that era', {
    timeout: 20_000,
  }, async () => {
    const { transport, rec } = await spawnServer(c.options());
    const answer = await rec.request('probe', 'server/discover', { _meta: modernMeta });
    const observation: ProbeObservation =
      'result' in answer
        ? { type: 'result', result: answer.result }
        : { type: 'error', error: (answer as { error: { code: number; message: string } }).error };
    const verdict = classifyStdioProbe(observation, { requested: '2026-07-28' });
    expect(verdict.verdict).toBe(c.probe.verdict);
    if (c.probe.errorCode !== undefined) {
      expect(observation).toMatchObject({ type: 'error', error: { code: c.probe.errorCode } });
    }
    if (verdict.verdict === 'legacy') {
      // A legacy verdict without `fresh` continues on the same connection.
      expect(verdict.fresh).toBe(false);
      await legacySession(rec, transport, c);
    } else {
      expect(observation).toMatchObject({
        type: 'result',
        result: {
          supportedVersions: expect.arrayContaining(['2026-07-28']),
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: c.serverName } },
        },
      });
      const call = await rec.request(4, 'tools/call', {
        name: c.tool.name,
        arguments: c.tool.arguments,
        _meta: modernMeta,
      });
      expect(call).toMatchObject({
        result: { content: [{ type: 'text', text: c.tool.text }] },
      });
    }
    await transport.close();
    expect(transport.exitInfo).toMatchObject({ exitCode: 0, signal: null });
    expect(rec.errors).toEqual([]);
  });
});
