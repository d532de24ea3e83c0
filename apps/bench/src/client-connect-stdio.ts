/**
 * stdio contenders of the client-connect benchmark: twofold's `McpClient` (auto or pinned),
 * the official client 2.4.0 (its default, which is the legacy `initialize`, or its `auto` /
 * pinned negotiation, which probes on a disposable sibling process), and a floor written by
 * hand: spawn, write the requests as newline-delimited JSON, read the answers.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpClient, type McpClientOptions } from '@twofold/client/experimental';
import { stdioServer } from '@twofold/client/node';
import { LATEST_VERSION } from '@twofold/protocol/experimental';
import { DEFAULT_INHERITED_ENV_VARS } from '@twofold/transports/node';
import type { ConnectAndList, SpawnLog } from './client-connect-stats';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };
/** Every fixture serves this many tools. */
export const TOOL_COUNT = 3;

/** The path of a fixture server under src/fixtures. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`client-connect: ${what}`);
}

/** Runs `use` on a connected client; closes it if `use` fails. */
async function checked<C extends { close(): Promise<void> }>(
  client: C,
  use: (client: C) => Promise<void>,
): Promise<() => Promise<void>> {
  try {
    await use(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  return () => client.close();
}

/** twofold `McpClient` on a stdio fixture; `era` is what it must conclude. */
export function twofoldStdio(
  script: string,
  log: SpawnLog,
  options: Partial<McpClientOptions>,
  era: 'modern' | 'legacy',
): ConnectAndList {
  const target = stdioServer({
    command: process.execPath,
    args: [fixture(script)],
    cwd: BENCH_DIR,
    env: { BENCH_SPAWN_LOG: log.path },
  });
  return async () => {
    const client = await McpClient.connect(target, {
      clientInfo: CLIENT_INFO,
      cache: false,
      ...options,
    });
    return checked(client, async (c) => {
      const { tools } = await c.listTools();
      check(tools.length === TOOL_COUNT, `twofold listed ${tools.length} tools`);
      check(c.era === era, `twofold concluded ${c.era}, expected ${era}`);
    });
  };
}

/**
 * The official client 2.4.0 on a stdio fixture. `mode` absent: its default (`legacy`, a plain
 * `initialize`); `auto` and pins probe with `server/discover` first.
 */
export function officialStdio(
  script: string,
  log: SpawnLog,
  era: 'modern' | 'legacy',
  mode?: VersionNegotiationMode,
  probeTimeoutMs?: number,
): ConnectAndList {
  return async () => {
    const probe = probeTimeoutMs === undefined ? {} : { probe: { timeoutMs: probeTimeoutMs } };
    const client = new Client(
      CLIENT_INFO,
      mode === undefined ? {} : { versionNegotiation: { mode, ...probe } },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [fixture(script)],
        cwd: BENCH_DIR,
        env: { BENCH_SPAWN_LOG: log.path },
        stderr: 'ignore',
      }),
    );
    return checked(client, async (c) => {
      const { tools } = await c.listTools();
      check(tools.length === TOOL_COUNT, `official listed ${tools.length} tools`);
      check(c.getProtocolEra() === era, `official concluded ${c.getProtocolEra()}`);
    });
  };
}

type Message = Record<string, unknown>;

const meta = {
  'io.modelcontextprotocol/protocolVersion': LATEST_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
};

/** The floor's exchanges for a modern server: one `tools/list` carrying the modern `_meta`. */
export const MODERN_BY_HAND: Message[][] = [
  [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }],
];

/** The floor's exchanges for a legacy server: `initialize`, then `initialized` + `tools/list`. */
export const LEGACY_BY_HAND: Message[][] = [
  [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
    },
  ],
  [
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ],
];

/**
 * The environment the clients give a server: their allow-list only. Passing all of this
 * process's environment would not be a floor (e.g. `NODE_EXTRA_CA_CERTS` alone can slow a
 * Node start by tens of milliseconds).
 */
function allowListedEnv(log: SpawnLog): Record<string, string> {
  const env: Record<string, string> = { BENCH_SPAWN_LOG: log.path };
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * The floor: spawn the fixture and run `exchanges` by hand (each: write its messages, wait for
 * the answer to its last one); the last answer must list the tools.
 */
export function byHand(script: string, log: SpawnLog, exchanges: Message[][]): ConnectAndList {
  return async () => {
    const child = spawn(process.execPath, [fixture(script)], {
      cwd: BENCH_DIR,
      env: allowListedEnv(log),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const close = async () => {
      child.stdin.end();
      await exited;
    };
    try {
      let last = '';
      for (const messages of exchanges) {
        child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
        const next = await lines.next();
        check(next.done !== true, 'the server closed its output');
        last = String(next.value);
      }
      const tools = (JSON.parse(last) as { result?: { tools?: unknown[] } }).result?.tools;
      check(tools?.length === TOOL_COUNT, `by hand: unexpected answer ${last.slice(0, 200)}`);
    } catch (error) {
      child.kill();
      await exited;
      throw error;
    }
    return close;
  };
}
