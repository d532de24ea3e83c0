/**
 * The soak: many concurrent twofold clients against one twofold server for a bounded time —
 * over HTTP, `clients` clients of their own against one server process; over stdio, one client
 * keeping `clients` calls in flight to its server process. Reports the calls done, errors,
 * missing and wrong answers, unexpected messages the clients saw (a duplicate answer shows
 * there), and RSS, heap and open fds of server and clients before and after, so a leak shows.
 */
import { McpClient, type McpClientOptions } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import { within } from '../bounded';
import { HttpServerProcess } from '../http-servers';
import { BENCH_DIR, TWOFOLD } from '../impls';
import { ownUsage, settledUsage, USAGE_HEADER, type Usage, usageRow } from '../process-usage';
import { formatNumber } from '../report';
import { driveLoad, type LoadCounts } from './soak-load';

export interface SoakOptions {
  durationMs: number;
  clients: number;
}

interface Variant {
  name: string;
  clients: number;
  inFlight: number;
  load: LoadCounts & { seconds: number };
  unexpected: number;
  crashed?: string;
  usage: { process: string; before: Usage; after?: Usage }[];
}

const TOOLS = 2;
const BOUND_MS = 30_000;

function clientOptions(onUnexpected: () => void): McpClientOptions {
  return {
    clientInfo: { name: 'bench-soak', version: '1.0.0' },
    cache: false,
    onWarning: (warning) => {
      if (warning.code === 'unexpected-message') onUnexpected();
    },
  };
}

async function closeAll(clients: readonly McpClient[]): Promise<void> {
  await within(Promise.all(clients.map((c) => c.close())), BOUND_MS, 'closing the clients');
}

async function soakHttp(options: SoakOptions): Promise<Variant> {
  const server = await HttpServerProcess.start(TWOFOLD, TOOLS, 'modern');
  try {
    const serverUsage = async () =>
      (await within(server.usage(true), BOUND_MS, 'server usage')) as Usage;
    const serverBefore = await serverUsage();
    const clientsBefore = ownUsage();
    let unexpected = 0;
    const target = httpServer({ url: server.url });
    const clients = await within(
      Promise.all(
        Array.from({ length: options.clients }, () =>
          McpClient.connect(
            target,
            clientOptions(() => unexpected++),
          ),
        ),
      ),
      BOUND_MS,
      'connecting the clients',
    );
    const load = await driveLoad(clients, options.clients, options.durationMs, TOOLS);
    await closeAll(clients);
    const crashed = server.exit;
    const serverAfter = crashed ? undefined : await settledUsage(serverUsage, serverBefore);
    return {
      name: 'HTTP: one server, a client per worker',
      clients: options.clients,
      inFlight: options.clients,
      load,
      unexpected,
      crashed: crashed && `server ${crashed}`,
      usage: [
        {
          process: 'HTTP server',
          before: serverBefore,
          after: serverAfter,
        },
        { process: 'HTTP clients (bench process)', before: clientsBefore, after: ownUsage() },
      ],
    };
  } finally {
    await server.close();
  }
}

/** The stdio server's usage, asked through its `bench_stats` tool after a forced GC. */
async function stdioServerUsage(client: McpClient): Promise<Usage> {
  const result = await client.callTool('bench_stats', { gc: true }, { timeoutMs: BOUND_MS });
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '{}';
  return JSON.parse(text) as Usage;
}

async function soakStdio(options: SoakOptions): Promise<Variant> {
  const clientBefore = ownUsage();
  let unexpected = 0;
  const target = stdioServer({
    command: process.execPath,
    args: ['--expose-gc', TWOFOLD.server, '--transport', 'stdio', '--tools', String(TOOLS)],
    cwd: BENCH_DIR,
  });
  const client = await within(
    McpClient.connect(
      target,
      clientOptions(() => unexpected++),
    ),
    BOUND_MS,
    'connecting the stdio client',
  );
  let lost: string | undefined;
  // A cause means the connection ended by itself; our own close() has none.
  client.onClose((cause) => {
    if (cause) lost = cause.message;
  });
  let load: Variant['load'];
  let serverUsage: Variant['usage'][number];
  try {
    const before = await stdioServerUsage(client);
    load = await driveLoad([client], options.clients, options.durationMs, TOOLS);
    serverUsage = {
      process: 'stdio server',
      before,
      after: lost ? undefined : await stdioServerUsage(client),
    };
  } finally {
    await closeAll([client]);
  }
  return {
    name: 'stdio: one server, one client',
    clients: 1,
    inFlight: options.clients,
    load,
    unexpected,
    crashed: lost && `connection lost: ${lost}`,
    // The client's usage is read once its server process is gone, so its pipes no longer count.
    usage: [
      serverUsage,
      { process: 'stdio client (bench process)', before: clientBefore, after: ownUsage() },
    ],
  };
}

/** What a variant found that fails the run. */
function failures(v: Variant): string[] {
  const found: string[] = [];
  if (v.crashed) found.push(`${v.name}: ${v.crashed}`);
  if (v.load.missing > 0) found.push(`${v.name}: ${v.load.missing} missing answers`);
  if (v.load.hung > 0) found.push(`${v.name}: ${v.load.hung} calls hung past the client's bound`);
  if (v.load.wrong > 0) found.push(`${v.name}: ${v.load.wrong} wrong answers`);
  if (v.unexpected > 0)
    found.push(`${v.name}: ${v.unexpected} unexpected messages (a duplicate answer shows there)`);
  const errors = Object.values(v.load.errors).reduce((a, b) => a + b, 0);
  if (errors > 0) found.push(`${v.name}: ${errors} failed calls`);
  return found;
}

function render(variants: readonly Variant[], options: SoakOptions): string {
  const errors = (v: Variant) =>
    Object.entries(v.load.errors)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ') || '0';
  return [
    `${options.clients} concurrent workers for ${formatNumber(options.durationMs / 1000)} s per variant, each calling \`echo\` with a text of its own (4 in 5 calls) or \`tools/list\`; a call is bounded by the client's timeout (10 s) and a watchdog. "Unexpected messages" are what the clients reported as not belonging to any request (a duplicate answer counts there). Usage is read after a forced GC, before the clients connect and after they closed.`,
    '',
    '| variant | clients | in flight | seconds | calls | calls/s | errors | missing | hung | wrong answers | unexpected messages | server |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |',
    ...variants.map((v) => {
      const cells = [
        v.name,
        v.clients,
        v.inFlight,
        formatNumber(v.load.seconds),
        v.load.requests,
        formatNumber(v.load.requests / v.load.seconds),
        errors(v),
        v.load.missing,
        v.load.hung,
        v.load.wrong,
        v.unexpected,
        v.crashed ? `**${v.crashed}**` : 'alive',
      ];
      return `| ${cells.map((c) => (typeof c === 'number' ? formatNumber(c) : c)).join(' | ')} |`;
    }),
    '',
    ...USAGE_HEADER,
    ...variants.flatMap((v) => v.usage.map((u) => usageRow(u.process, u.before, u.after))),
  ].join('\n');
}

/** Runs both variants in turn; the Markdown of the section and what fails the run. */
export async function runSoak(
  options: SoakOptions,
): Promise<{ markdown: string; failures: string[] }> {
  const variants = [await soakHttp(options), await soakStdio(options)];
  return { markdown: render(variants, options), failures: variants.flatMap(failures) };
}
