/**
 * The LangChain adapter against the real `@langchain/core`: tools imported from a real twofold
 * MCP server used as structured tools (direct calls, tool calls, a runnable sequence, the OpenAI
 * tool format LangChain derives), and LangChain tools (zod 4, zod 3, JSON Schema) as host tools.
 */
import type { ToolMessage } from '@langchain/core/messages';
import { RunnableLambda, RunnableSequence } from '@langchain/core/runnables';
import { DynamicStructuredTool, tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import type { CallToolResult } from '@twofold/protocol/experimental';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { fromLangChainTools, ToolInputRequiredError, toLangChainTools } from '../../src/langchain';
import { ADD_INPUT, askingTool, importCalc, localTool, PIXEL } from './support';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function calcTools() {
  const imported = await importCalc();
  cleanups.push(imported.close);
  const tools = toLangChainTools(imported.registry);
  const byName = (name: string) => {
    const found = tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  return { ...imported, tools, byName };
}

const signal = () => new AbortController().signal;

describe('toLangChainTools', () => {
  it('calls imported MCP tools with plain arguments and with tool calls', async () => {
    const { tools, byName } = await calcTools();
    expect(tools.map((t) => t.name)).toEqual(['add', 'confirm', 'echo', 'fail', 'picture']);
    const add = byName('add');
    expect(add.description).toBe('Adds two numbers');
    expect(add.metadata).toEqual({
      mcpServer: 'calc',
      mcpTool: 'add',
      annotations: { readOnlyHint: true },
    });
    expect(await add.invoke({ a: 2, b: 3 })).toBe('5');

    const message = (await add.invoke({
      type: 'tool_call',
      id: 'call-1',
      name: 'add',
      args: { a: 4, b: 5 },
    })) as ToolMessage;
    expect(message.tool_call_id).toBe('call-1');
    expect(message.content).toBe('9');
    expect(message.status).toBe('success');
    expect((message.artifact as CallToolResult).structuredContent).toEqual({ sum: 9 });
  });

  it('gives LangChain the server schema (validation and the OpenAI tool format)', async () => {
    const { byName } = await calcTools();
    const add = byName('add');
    expect(convertToOpenAITool(add).function.parameters).toMatchObject(ADD_INPUT);
    await expect(add.invoke({ a: 'two', b: 3 })).rejects.toThrow(/did not match expected schema/);
  });

  it('reports isError results as error tool messages and images as content blocks', async () => {
    const { byName } = await calcTools();
    const failed = (await byName('fail').invoke({
      type: 'tool_call',
      id: 'c2',
      name: 'fail',
      args: {},
    })) as ToolMessage;
    expect(failed.status).toBe('error');
    expect(failed.content).toBe('the disk is full');
    expect(await byName('fail').invoke({})).toBe('the disk is full');

    expect(await byName('picture').invoke({})).toEqual([
      { type: 'text', text: 'a pixel' },
      { type: 'image', mimeType: 'image/png', data: PIXEL },
    ]);
  });

  it('runs inside a RunnableSequence that turns a request into a tool call', async () => {
    const { byName } = await calcTools();
    const chain = RunnableSequence.from([
      RunnableLambda.from((text: string) => {
        const [a, b] = text.split('+').map(Number);
        return { type: 'tool_call' as const, id: 'seq-1', name: 'add', args: { a, b } };
      }),
      byName('add'),
    ]);
    const message = (await chain.invoke('20+22')) as ToolMessage;
    expect(message.content).toBe('42');
  });

  it('passes the run signal, and throws a typed error for unanswered input', async () => {
    const seenSignal = localTool('probe', async (_args, context) => ({
      content: [{ type: 'text', text: String(context.signal.aborted) }],
    }));
    const [probe, ask] = toLangChainTools([seenSignal, askingTool()]);
    const controller = new AbortController();
    expect(await probe?.invoke({ n: 1 }, { signal: controller.signal })).toBe('false');
    expect(seenSignal.seen[0]?.context.signal).toBeInstanceOf(AbortSignal);

    const error = await ask?.invoke({}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolInputRequiredError);
    expect((error as ToolInputRequiredError).state).toEqual({ step: 1 });
  });

  it('aborts a running call when the run is aborted', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = localTool('slow', (_args, context) => {
      started();
      return new Promise((_resolve, reject) => {
        context.signal.addEventListener('abort', () => reject(context.signal.reason), {
          once: true,
        });
      });
    });
    const [lcSlow] = toLangChainTools([slow]);
    const controller = new AbortController();
    const call = lcSlow?.invoke({}, { signal: controller.signal });
    await running;
    controller.abort(new Error('user stopped'));
    await expect(call).rejects.toThrow();
    expect(slow.seen[0]?.context.signal.aborted).toBe(true);
  });
});

describe('fromLangChainTools', () => {
  const multiply = tool(async ({ a, b }: { a: number; b: number }) => String(a * b), {
    name: 'multiply',
    description: 'Multiplies',
    schema: z.object({ a: z.number(), b: z.number().default(2) }),
  });
  const legacy = new DynamicStructuredTool({
    name: 'shout',
    description: 'Upper-cases',
    schema: z3.object({ text: z3.string() }),
    func: async ({ text }: { text: string }) => text.toUpperCase(),
  });
  const broken = tool(
    async () => {
      throw new Error('boom');
    },
    { name: 'broken', description: 'Fails', schema: { type: 'object', properties: {} } },
  );

  it('converts zod 4, zod 3 and JSON Schema tools and maps their answers', async () => {
    const [m, s, b] = fromLangChainTools([multiply, legacy, broken]);
    expect(m?.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number', default: 2 } },
      required: ['a'],
    });
    expect(s?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    expect(b?.inputSchema).toEqual({ type: 'object', properties: {} });

    expect(await m?.invoke({ a: 3 }, { signal: signal() })).toEqual({
      content: [{ type: 'text', text: '6' }],
    });
    expect(await s?.invoke({ text: 'hi' }, { signal: signal() })).toEqual({
      content: [{ type: 'text', text: 'HI' }],
    });
    expect(await b?.invoke({}, { signal: signal() })).toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
    const invalid = (await m?.invoke({ a: 'x' }, { signal: signal() })) as CallToolResult;
    expect(invalid.isError).toBe(true);
  });

  it('round-trips MCP tools: the MCP result comes back whole from the artifact', async () => {
    const { tools } = await calcTools();
    const hosts = fromLangChainTools(tools);
    const add = hosts.find((h) => h.name === 'add');
    expect(add?.inputSchema).toEqual(ADD_INPUT);
    expect(await add?.invoke({ a: 1, b: 2 }, { signal: signal() })).toMatchObject({
      content: [{ type: 'text', text: '3' }],
      structuredContent: { sum: 3 },
    });
    const fail = hosts.find((h) => h.name === 'fail');
    expect(await fail?.invoke({}, { signal: signal() })).toMatchObject({ isError: true });
  });
});
