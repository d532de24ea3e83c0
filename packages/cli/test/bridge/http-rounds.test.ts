/**
 * twofold's `McpClient` (modern and legacy) through the HTTP bridge to twofold's everything
 * server on stdio (modern, or pinned legacy): in every era combination a two-round input
 * request is answered by the downstream client's handlers (for a tool and for a prompt), a
 * progress stream reaches its `onProgress`, resources, prompts and completion cross, and a
 * tool-list change upstream reaches its `listen` and its next listing.
 */
import type { InputHandlers, McpClient } from '@twofold/client/experimental';
import { describe, expect, it } from 'vitest';
import {
  BRIDGE_TIMEOUT,
  COMBINATIONS,
  downstreamClient,
  loopbackBridge,
  textOf,
  twofoldEverything,
  useBridgeEnv,
} from './support/bridge-env';

useBridgeEnv();

/** Answers the everything server's questions: a name, a favourite colour, a context. */
function answeringHandlers(asked: string[]): InputHandlers {
  return {
    elicitation: async ({ message }) => {
      asked.push(message);
      const field = ['name', 'color', 'context'].find((word) => message.includes(word)) ?? '';
      const values: Record<string, string> = { name: 'Ada', color: 'teal', context: 'bridged' };
      return { action: 'accept', content: { [field]: values[field] ?? '' } };
    },
  };
}

async function toolNames(client: McpClient): Promise<string[]> {
  const { tools } = await client.listTools({}, { cache: 'bypass' });
  return tools.map((tool) => tool.name);
}

describe.each(COMBINATIONS)(
  '$downstream client → bridge → $upstream everything server',
  ({ downstream, upstream }) => {
    it('carries input rounds, progress, prompts, resources, completion and a list change', {
      timeout: BRIDGE_TIMEOUT,
    }, async () => {
      const bridge = await loopbackBridge({ upstream: twofoldEverything(), era: upstream });
      expect(bridge.upstreamVerdict.era).toBe(upstream);
      const asked: string[] = [];
      const client = await downstreamClient(bridge.url, downstream, {
        handlers: answeringHandlers(asked),
      });
      expect(client.era).toBe(downstream);
      expect(client.serverInfo?.name).toBe('twofold-everything-server');

      // Two rounds of input: each question is asked downstream and answered there.
      const rounds = await client.callTool('test_input_required_result_multi_round');
      expect(textOf(rounds)).toBe('Favorite color: teal');
      expect(asked).toEqual(['Step 1: What is your name?', 'Step 2: What is your favorite color?']);

      const prompted = await client.getPrompt('test_input_required_result_prompt');
      expect(prompted.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Prompt with context: bridged' } },
      ]);
      expect(
        await client.getPrompt('test_prompt_with_arguments', { arg1: 'a', arg2: 'b' }),
      ).toMatchObject({
        messages: [{ content: { text: "Prompt with arguments: arg1='a', arg2='b'" } }],
      });
      const read = await client.readResource('test://template/123/data');
      expect(read.contents[0]).toMatchObject({ uri: 'test://template/123/data' });
      const completed = await client.complete({
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'id', value: '1' },
      });
      expect(completed.completion.values).toEqual(['1', '123']);

      const progress: number[] = [];
      const reported = await client.callTool(
        'test_tool_with_progress',
        {},
        {
          onProgress: (update) => progress.push(update.progress),
        },
      );
      expect(textOf(reported)).toBe('Progress reported');
      expect(progress).toEqual([0, 50, 100]);

      const changes = client.listen({ toolsListChanged: true });
      expect(await changes.acknowledged).toMatchObject({ toolsListChanged: true });
      expect(await toolNames(client)).toContain('test_placeholder_tool');
      await client.callTool('test_trigger_tool_change');
      for await (const change of changes) {
        expect(change).toEqual({ type: 'toolsListChanged' });
        break;
      }
      // The bridge refreshed its snapshot before announcing the change.
      expect(await toolNames(client)).not.toContain('test_placeholder_tool');
    });
  },
);
