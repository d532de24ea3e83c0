/**
 * What every interop test checks on a connected client: the fixture surface shared by the
 * official 2.4.0 and SDK 1.32.2 fixtures (`add`, `count` with progress, `confirm` needing an
 * elicitation, `fixture://greeting`, `greet`), and input handlers that record what they answer.
 */
import type { ElicitRequestParams } from '@twofold/protocol/experimental';
import { expect } from 'vitest';
import type { McpClient } from '../../src/client';
import type { InputHandlers, Progress } from '../../src/types';

/** The text of the text blocks of a result, joined with newlines. */
export function textOf(result: { content?: unknown } | { messages?: unknown }): string {
  const blocks =
    'content' in result && Array.isArray(result.content)
      ? result.content
      : 'messages' in result && Array.isArray(result.messages)
        ? result.messages.map((message: { content?: unknown }) => message.content)
        : [];
  return blocks
    .filter((block): block is { type: 'text'; text: string } => block?.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** One input request a handler answered. */
export interface AnsweredInput {
  kind: 'elicitation' | 'sampling' | 'roots';
  era: 'modern' | 'legacy';
  params?: unknown;
}

/**
 * Handlers that answer every elicitation by accepting each requested field (`ok` → true,
 * other fields → `<field>-answer`), every sampling request with `Paris`, and roots with one
 * root; `answered` lists what they were asked, in order.
 */
export function answeringHandlers(): { handlers: InputHandlers; answered: AnsweredInput[] } {
  const answered: AnsweredInput[] = [];
  const handlers: InputHandlers = {
    elicitation: async (params, { era }) => {
      answered.push({ kind: 'elicitation', era, params });
      return { action: 'accept', content: formAnswers(params) };
    },
    sampling: async (params, { era }) => {
      answered.push({ kind: 'sampling', era, params });
      return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'interop' };
    },
    roots: async ({ era }) => {
      answered.push({ kind: 'roots', era });
      return { roots: [{ uri: 'file:///interop/root', name: 'interop' }] };
    },
  };
  return { handlers, answered };
}

function formAnswers(params: ElicitRequestParams): Record<string, string | boolean> {
  const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
  const fields = Object.keys(schema?.properties ?? {});
  return Object.fromEntries(
    fields.map((field) => [field, field === 'ok' ? true : `${field}-answer`]),
  );
}

/** How much of the fixture surface a server offers. */
export interface FixtureTour {
  era: 'modern' | 'legacy';
  /** Whether `confirm` can reach the elicitation handler (stateless legacy serving cannot). */
  elicitation: boolean;
  answered: AnsweredInput[];
}

/** Lists, calls, reads and gets the fixture surface, checking every answer. */
export async function tourFixture(client: McpClient, tour: FixtureTour): Promise<void> {
  const tools = await client.listTools();
  expect(tools.tools.map((tool) => tool.name)).toEqual(
    expect.arrayContaining(['add', 'count', 'confirm']),
  );
  expect(textOf(await client.callTool('add', { a: 2, b: 40 }))).toBe('42');

  const progress: Progress[] = [];
  const counted = await client.callTool('count', {}, { onProgress: (p) => progress.push(p) });
  expect(textOf(counted)).toBe('counted to 3');
  expect(progress.map((p) => [p.progress, p.total])).toEqual([
    [1, 3],
    [2, 3],
    [3, 3],
  ]);

  const resources = await client.listResources();
  expect(resources.resources.map((resource) => resource.uri)).toContain('fixture://greeting');
  const read = await client.readResource('fixture://greeting');
  expect(read.contents).toEqual([
    expect.objectContaining({ uri: 'fixture://greeting', text: 'hello' }),
  ]);

  const prompts = await client.listPrompts();
  expect(prompts.prompts.map((prompt) => prompt.name)).toContain('greet');
  expect(textOf(await client.getPrompt('greet', { name: 'Ann' }))).toBe('Say hello to Ann');

  const before = tour.answered.length;
  const confirmed = await client.callTool('confirm', { action: 'deploy' });
  if (tour.elicitation) {
    expect(confirmed.isError).not.toBe(true);
    expect(textOf(confirmed)).toBe('deploy: ok=true');
    expect(tour.answered.slice(before)).toEqual([
      expect.objectContaining({
        kind: 'elicitation',
        era: tour.era,
        params: expect.objectContaining({ message: 'Really deploy?' }),
      }),
    ]);
  } else {
    // The server cannot ask: it says so in the tool result, and no handler runs.
    expect(confirmed.isError).toBe(true);
    expect(tour.answered.length).toBe(before);
  }
}

/**
 * `listen` for tool list changes (announced after `trigger()`), then a `wait` call cancelled
 * from its first progress: it rejects `REQUEST_ABORTED`, `serverSawCancel()` resolves once
 * the server noticed, and the session carries on.
 */
export async function listenAndCancel(
  client: McpClient,
  trigger: () => Promise<unknown> | unknown,
  serverSawCancel: () => Promise<void>,
): Promise<void> {
  const stream = client.listen({ toolsListChanged: true });
  expect(await stream.acknowledged).toEqual({ toolsListChanged: true });
  await trigger();
  const { value } = await stream[Symbol.asyncIterator]().next();
  expect(value).toEqual({ type: 'toolsListChanged' });
  await stream.close();

  const controller = new AbortController();
  const waiting = client.callTool(
    'wait',
    {},
    { signal: controller.signal, onProgress: () => controller.abort(new Error('enough')) },
  );
  await expect(waiting).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
  await serverSawCancel();
  expect(textOf(await client.callTool('add', { a: 1, b: 2 }))).toBe('3');
}
