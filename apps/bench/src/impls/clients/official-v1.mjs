// The official SDK 1.32.2 client (legacy era only) in a benchmark driver, default settings.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runDriver } from './driver.mjs';

const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };

async function connect(target) {
  const client = new Client(CLIENT_INFO);
  const transport =
    target.kind === 'stdio'
      ? new StdioClientTransport({ command: target.command, args: target.args, cwd: target.cwd })
      : new StreamableHTTPClientTransport(new URL(target.url));
  await client.connect(transport);
  return {
    era: 'legacy',
    async listTools() {
      return (await client.listTools()).tools.length;
    },
    async call(name, args, timeoutMs) {
      const options = timeoutMs ? { timeout: timeoutMs } : {};
      const result = await client.callTool({ name, arguments: args }, undefined, options);
      return result.content[0]?.text;
    },
    onLost: (listener) => {
      client.onclose = () => listener('the connection closed');
    },
    async close() {
      if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

runDriver({ connect });
