import { fileURLToPath } from 'node:url';
import { InMemoryToolRegistry } from '@twofold/registry-adapter/experimental';
import { type ManagerEvent, ServerManager } from '@twofold/registry-adapter/node';
import { McpServer } from '@twofold/server/experimental';
import { serveStdio } from '@twofold/server/node';
import { z } from 'zod';

// This file is also the two MCP servers it manages: `serve <name>` runs one on stdio.
if (process.argv[2] === 'serve') {
  const name = process.argv[3] ?? 'server';
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool({
    name: 'search',
    description: `Searches the ${name}`,
    inputSchema: z.object({ query: z.string() }),
    handler: ({ query }) => `${name}: 3 hits for "${query}" (pid ${process.pid})`,
  });
  if (name === 'tickets') {
    server.registerTool({
      name: 'crash',
      inputSchema: z.object({}),
      handler: () => process.exit(1),
    });
  }
  await serveStdio(server);
} else {
  const self = [...process.execArgv, fileURLToPath(import.meta.url), 'serve'];
  const waiting = new Map<string, () => void>();
  const startedAgain = (server: string) =>
    new Promise<void>((resolve) => waiting.set(server, resolve));
  const onEvent = (event: ManagerEvent) => {
    if (event.type === 'restart-scheduled') {
      console.log(`restarting ${event.server} in ${event.delayMs} ms`);
    }
    if (event.type === 'server-started') waiting.get(event.server)?.();
  };

  // The agent's own tool registry, fed by two servers that both offer `search`.
  const registry = new InMemoryToolRegistry();
  const manager = ServerManager.fromConfig(
    {
      mcpServers: {
        docs: { command: process.execPath, args: [...self, 'docs'] },
        tickets: {
          command: process.execPath,
          args: [...self, 'tickets'],
          restart: { initialDelayMs: 100 },
        },
      },
      conflictPolicy: 'prefix-on-collision',
    },
    { registry, onEvent, log: (line) => console.log(`manager: ${line}`) },
  );
  await manager.start();
  console.log(
    `tools: ${registry
      .list()
      .map((tool) => tool.name)
      .join(', ')}`,
  );

  const signal = AbortSignal.timeout(10_000);
  const text = (outcome: unknown) =>
    (outcome as { content: { type: string; text: string }[] }).content[0]?.text;
  console.log(text(await registry.get('tickets__search')?.invoke({ query: 'login' }, { signal })));

  // The tickets server crashes mid-call; the manager restarts it and its tools come back.
  const back = startedAgain('tickets');
  await registry
    .get('crash')
    ?.invoke({}, { signal })
    .catch((error: Error) => console.log(`the call failed: ${error.message}`));
  await back;
  console.log(text(await registry.get('tickets__search')?.invoke({ query: 'login' }, { signal })));
  for (const { name, state, era, restarts } of manager.status()) {
    console.log(`${name}: ${state} (${era}), ${restarts} restart(s)`);
  }
  await manager.close();
}
