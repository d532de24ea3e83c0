/**
 * What every runtime's test checks, once per era: twofold's Node client connects to the demo
 * server (`servers/demo-server.js`), calls a tool, and hears of a tool registered later: on a
 * modern `subscriptions/listen` stream, or on the legacy session's GET stream.
 */
import { McpClient } from '@twofold/client/experimental';
import { httpServer } from '@twofold/client/node';
import { afterEach, expect, it } from 'vitest';

type Era = 'modern' | 'legacy';
const ERAS: Era[] = ['modern', 'legacy'];

/** Defines the tests against the server at `url()` (known once the runtime has started). */
export function checkBothEras(url: () => string): void {
  let client: McpClient | undefined;
  const connect = async (era: Era) => {
    client = await McpClient.connect(httpServer({ url: url() }), {
      clientInfo: { name: 'runtimes-test', version: '1.0.0' },
      era,
    });
    return client;
  };
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it.each(ERAS)('%s: connects and calls a tool', async (era) => {
    const connected = await connect(era);
    expect(connected.era).toBe(era);
    const result = await connected.callTool('add', { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
  });

  it.each(ERAS)('%s: hears of a tool registered after it connected', async (era) => {
    const connected = await connect(era);
    const changes = connected.listen({ toolsListChanged: true });
    expect(await changes.acknowledged).toMatchObject({ toolsListChanged: true });
    const grown = await connected.callTool('grow', {});
    for await (const change of changes) {
      expect(change).toEqual({ type: 'toolsListChanged' });
      break;
    }
    const { tools } = await connected.listTools();
    expect(tools.map((tool) => tool.name)).toContain(
      grown.content[0]?.type === 'text' ? grown.content[0].text : undefined,
    );
  });
}
