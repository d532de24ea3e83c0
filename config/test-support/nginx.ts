/**
 * nginx in front of test replicas, configured by deploy/nginx/mcp.conf (the file docs/deploy.md
 * shows) with only its upstream and listen ports replaced. Runs in a temporary prefix of its own,
 * never as the system service.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis-server.ts';

/** The deployment's nginx configuration, as docs/deploy.md includes it. */
export const MCP_CONF_PATH = fileURLToPath(new URL('../../deploy/nginx/mcp.conf', import.meta.url));

/** The ports the file names for its three replicas and for itself. */
const FILE_UPSTREAM_PORTS = [3001, 3002, 3003];
const FILE_LISTEN = 'listen 127.0.0.1:8080;';

/**
 * mcp.conf with the replicas on `upstreamPorts` (one to three) and nginx on `listenPort`; with
 * fewer than three, the `server` lines of the replicas left over are dropped.
 */
export function mcpConf(upstreamPorts: readonly number[], listenPort: number): string {
  if (upstreamPorts.length < 1 || upstreamPorts.length > FILE_UPSTREAM_PORTS.length) {
    throw new Error(`mcp.conf names 1 to 3 replicas, not ${upstreamPorts.length}`);
  }
  let conf = readFileSync(MCP_CONF_PATH, 'utf8');
  if (!conf.includes(FILE_LISTEN)) throw new Error(`mcp.conf lost its "${FILE_LISTEN}"`);
  conf = conf.replace(FILE_LISTEN, `listen 127.0.0.1:${listenPort};`);
  FILE_UPSTREAM_PORTS.forEach((filePort, i) => {
    const port = upstreamPorts[i];
    conf =
      port === undefined
        ? conf.replace(new RegExp(`^.*127\\.0\\.0\\.1:${filePort}\\b.*\n`, 'gm'), '')
        : conf.replaceAll(`127.0.0.1:${filePort}`, `127.0.0.1:${port}`);
  });
  return conf;
}

/**
 * A running nginx: its URL and the upstream of each request it proxied (its access log, which
 * lags the answers; each answer also names its upstream in an X-Upstream header).
 */
export interface TestNginx {
  readonly url: URL;
  upstreams(): string[];
  stop(): Promise<void>;
}

/** Starts nginx with mcp.conf in front of `upstreamPorts` (one to three), on a free loopback port. */
export async function startNginx(upstreamPorts: readonly number[]): Promise<TestNginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'twofold-nginx-'));
  const port = await freePort();
  writeFileSync(join(prefix, 'mcp.conf'), mcpConf(upstreamPorts, port));
  const accessLog = join(prefix, 'access.log');
  // As root, workers would run as nobody, who cannot write into the private prefix.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `${name}_temp_path ${join(prefix, name)};`)
    .join('\n  ');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `${user}
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 256; }
http {
  log_format upstream '$upstream_addr';
  access_log ${accessLog} upstream;
  # Names the replica in each answer: the access log is written after the response has gone,
  # so a test that reads it right after an answer may not find that answer's line yet.
  add_header X-Upstream $upstream_addr always;
  ${temp}
  include ${join(prefix, 'mcp.conf')};
}
`,
  );
  const child: ChildProcess = spawn(
    'nginx',
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  // Ready once it answers (any status); bounded, and an early exit fails at once.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const answered = await fetch(url, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (attempt > 200) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url,
    upstreams: () =>
      readFileSync(accessLog, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
