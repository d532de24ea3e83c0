// The official SDK 2.4.0 client in a benchmark driver. Era `auto` is its `versionNegotiation:
// { mode: 'auto' }` (the way to reach the modern revision), `modern` pins 2026-07-28, `legacy`
// is its default (a plain `initialize`).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runDriver } from './driver.mjs';

const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };
const MODES = { auto: 'auto', modern: { pin: '2026-07-28' } };

async function connect(target) {
  const mode = MODES[target.era];
  const client = new Client(CLIENT_INFO, mode ? { versionNegotiation: { mode } } : {});
  const transport =
    target.kind === 'stdio'
      ? new StdioClientTransport({ command: target.command, args: target.args, cwd: target.cwd })
      : new StreamableHTTPClientTransport(new URL(target.url));
  await client.connect(transport);
  return {
    get era() {
      return client.getProtocolEra();
    },
    async listTools() {
      return (await client.listTools()).tools.length;
    },
    async call(name, args, timeoutMs) {
      const result = await client.callTool(
        { name, arguments: args },
        timeoutMs ? { timeout: timeoutMs } : {},
      );
      return result.content[0]?.text;
    },
    onLost: (listener) => {
      client.onclose = () => listener('the connection closed');
    },
    async close() {
      // A legacy HTTP session is ended as the SDK documents it: DELETE, then close.
      if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

runDriver({ connect });
