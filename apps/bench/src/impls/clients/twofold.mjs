// twofold's client in a benchmark driver: `McpClient` over `stdioServer` or `httpServer`,
// default settings but for the result cache (off, so a list is always a round trip).
import { McpClient } from '@twofold/client/experimental';
import { httpServer, stdioServer } from '@twofold/client/node';
import { runDriver } from './driver.mjs';

const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };

async function connect(target) {
  const server =
    target.kind === 'stdio'
      ? stdioServer({ command: target.command, args: target.args, cwd: target.cwd })
      : httpServer({ url: target.url });
  const era = target.era === 'auto' ? {} : { era: target.era };
  const client = await McpClient.connect(server, { clientInfo: CLIENT_INFO, cache: false, ...era });
  return {
    get era() {
      return client.era;
    },
    async listTools() {
      return (await client.listTools()).tools.length;
    },
    async call(name, args, timeoutMs) {
      const result = await client.callTool(name, args, timeoutMs ? { timeoutMs } : {});
      return result.content[0]?.text;
    },
    onLost: (listener) => client.onClose((cause) => listener(cause?.message)),
    close: () => client.close(),
  };
}

runDriver({ connect });
