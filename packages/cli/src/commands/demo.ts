/**
 * `twofold demo`: starts the demo server and runs a short real exchange with it, in both eras,
 * over stdio and HTTP, saying what happens at each step. `--verbose` shows every message.
 */
import { fileURLToPath } from 'node:url';
import { McpClient, type McpClientOptions, type ServerTarget } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import type { CommandContext } from '../cli/command';
import { EXIT, type ExitCode } from '../cli/exit-codes';
import { tracedTarget } from '../cli/trace';
import { createDemoServer } from '../demo/server';

/** The built demo server beside this module (`dist/demo-server.js`). */
const DEMO_SERVER = fileURLToPath(new URL('./demo-server.js', import.meta.url));

export async function run(context: CommandContext): Promise<ExitCode> {
  const { bold, dim, green } = context.paint;
  const step = (title: string) => context.print(`\n${bold(title)}\n`);
  const say = (text: string) => context.print(`  ${text}\n`);
  const explain = (text: string) => context.print(`  ${dim(text)}\n`);
  const trace = (target: ServerTarget) =>
    context.verbose
      ? tracedTarget(target, (line) => context.note(context.paintErr.dim(line)))
      : target;
  const options = (era: 'auto' | 'legacy'): McpClientOptions => ({
    clientInfo: { name: 'twofold-demo-client', version: __TWOFOLD_VERSION__ },
    era,
    handlers: {
      elicitation: async (params) => {
        say(`the server asks: "${params.message}" → the demo answers "Ada"`);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    },
  });
  const stdio = stdioServer({ command: process.execPath, args: [DEMO_SERVER] });

  context.print(bold('twofold demo: one client, one server, both eras of MCP\n'));
  step('1. stdio, era detection (auto)');
  const modern = await McpClient.connect(trace(stdio), options('auto'));
  try {
    say(`connected: ${modern.era} ${modern.protocolVersion} to ${modern.serverInfo?.name}`);
    explain('the client sent server/discover first; a modern server answered it, so no handshake');
    explain('was needed and every request now carries its version and capabilities in _meta.');
    await tour(modern, say, explain, green);
  } finally {
    await modern.close();
  }

  step('2. stdio, the same server in the legacy era (2025 revisions)');
  const legacy = await McpClient.connect(trace(stdio), options('legacy'));
  try {
    say(`connected: ${legacy.era} ${legacy.protocolVersion}`);
    explain('initialize → the server chose the newest version both sides speak → initialized.');
    const greeting = await legacy.callTool('greet');
    say(`greet → ${green(textOf(greeting))}`);
    explain('the same handler asked again, but on a legacy session the question arrived as a');
    explain('server-to-client elicitation/create request, answered by the same client handler.');
  } finally {
    await legacy.close();
  }

  step('3. Streamable HTTP on 127.0.0.1, both eras at one endpoint');
  const endpoint = await serve(createServerHttpHandler(createDemoServer()));
  try {
    for (const era of ['auto', 'legacy'] as const) {
      const client = await McpClient.connect(
        trace(httpServer({ url: endpoint.url })),
        options(era),
      );
      try {
        const sum = await client.callTool('add', { a: 40, b: 2 });
        say(
          `${era === 'auto' ? 'auto  ' : 'legacy'} → ${client.era} ${client.protocolVersion} over ${client.verdict.transport}: add(40, 2) = ${green(textOf(sum))}`,
        );
      } finally {
        await client.close();
      }
    }
    explain(
      'modern requests are stateless POSTs with Mcp-Method/Mcp-Name headers checked against the',
    );
    explain('body; legacy ones live in a session (Mcp-Session-Id) opened by initialize.');
  } finally {
    await endpoint.close();
  }
  context.print(
    `\n${green('Done:')} every step above was a real exchange. Next: twofold --help, twofold doctor.\n`,
  );
  return EXIT.ok;
}

async function tour(
  client: McpClient,
  say: (text: string) => void,
  explain: (text: string) => void,
  green: (text: string) => string,
): Promise<void> {
  const { tools } = await client.listTools();
  say(`tools/list → ${tools.map((t) => t.name).join(', ')}`);
  const sum = await client.callTool('add', { a: 2, b: 3 });
  say(`add(2, 3) → ${green(textOf(sum))} (structured: ${JSON.stringify(sum.structuredContent)})`);
  const ticks: string[] = [];
  const countdown = await client.callTool(
    'countdown',
    { n: 3 },
    { onProgress: (p) => ticks.push(`${p.progress}/${p.total}`) },
  );
  say(`countdown(3) → ${green(textOf(countdown))}, progress ${ticks.join(' ')}`);
  const greeting = await client.callTool('greet');
  say(`greet → ${green(textOf(greeting))}`);
  explain('the server returned input_required; the client answered and retried with the');
  explain('requestState the server sealed — no session, any replica could have served the retry.');
  const changes = client.listen({ toolsListChanged: true });
  await changes.acknowledged;
  const grown = await client.callTool('grow');
  const iterator = changes[Symbol.asyncIterator]();
  const change = await iterator.next();
  await changes.close();
  say(`grow → ${textOf(grown)}; subscriptions/listen delivered ${JSON.stringify(change.value)}`);
}

function textOf(result: { content: unknown[] }): string {
  const first = result.content[0] as { type?: string; text?: string } | undefined;
  return first?.type === 'text' ? String(first.text) : JSON.stringify(result.content);
}
