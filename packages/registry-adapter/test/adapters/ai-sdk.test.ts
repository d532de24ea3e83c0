/**
 * The AI SDK adapter against the real `ai` package: `generateText` with the SDK's mock model
 * calling tools imported from a real twofold MCP server, and AI SDK tools (zod, `jsonSchema()`,
 * streaming, `toModelOutput`) turned into host tools.
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fromAiSdkTools,
  isToolInputRequiredError,
  ToolInputRequiredError,
  toAiSdkTools,
} from '../../src/ai-sdk';
import { InMemoryToolRegistry } from '../../src/registry/memory';
import { ACCEPTING, ADD_INPUT, askingTool, importCalc, localTool, PIXEL } from './support';

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that calls `toolName` with `input` once, then answers "done". */
function callingModel(toolName: string, input: unknown) {
  return new MockLanguageModelV4({
    doGenerate: [
      {
        content: [
          { type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: USAGE,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: USAGE,
        warnings: [],
      },
    ],
  });
}

/** The tool-result part the model got back in its second call. */
function toolResultSent(model: MockLanguageModelV4): unknown {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  const message = prompt.find((m) => m.role === 'tool');
  return message?.role === 'tool' ? message.content[0] : undefined;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function calc(options: Parameters<typeof importCalc>[0] = {}) {
  const imported = await importCalc(options);
  cleanups.push(imported.close);
  return imported;
}

describe('toAiSdkTools', () => {
  it('lets generateText call a tool imported from an MCP server', async () => {
    const { registry } = await calc();
    const tools = toAiSdkTools(registry);
    expect(Object.keys(tools)).toEqual(['add', 'confirm', 'echo', 'fail', 'picture']);
    const model = callingModel('add', { a: 2, b: 3 });

    const result = await generateText({ model, tools, prompt: 'add', stopWhen: stepCountIs(3) });

    expect(result.text).toBe('done');
    const first = result.steps[0];
    expect(first?.toolResults).toHaveLength(1);
    const output = first?.toolResults[0]?.output as CallToolResult;
    expect(output.structuredContent).toEqual({ sum: 5 });
    // The model saw the server's schema as sent, and then the result's text.
    const sent = model.doGenerateCalls[0]?.tools?.find((t) => t.name === 'add');
    expect(sent).toMatchObject({ type: 'function', description: 'Adds two numbers' });
    expect(sent && 'inputSchema' in sent ? sent.inputSchema : undefined).toEqual(ADD_INPUT);
    expect(toolResultSent(model)).toMatchObject({
      type: 'tool-result',
      toolCallId: 'call-1',
      output: { type: 'text', value: '5' },
    });
    expect(tools.add?.metadata).toEqual({ mcpServer: 'calc', mcpTool: 'add' });
  });

  it('shows an isError result to the model as error text', async () => {
    const { registry } = await calc();
    const model = callingModel('fail', {});
    const result = await generateText({
      model,
      tools: toAiSdkTools(registry),
      prompt: 'fail',
      stopWhen: stepCountIs(3),
    });
    expect((result.steps[0]?.toolResults[0]?.output as CallToolResult | undefined)?.isError).toBe(
      true,
    );
    expect(toolResultSent(model)).toMatchObject({
      output: { type: 'error-text', value: 'the disk is full' },
    });
  });

  it('gives images to the model as file parts', async () => {
    const { registry } = await calc();
    const model = callingModel('picture', {});
    await generateText({
      model,
      tools: toAiSdkTools(registry),
      prompt: 'draw',
      stopWhen: stepCountIs(3),
    });
    expect(toolResultSent(model)).toMatchObject({
      output: {
        type: 'content',
        value: [
          { type: 'text', text: 'a pixel' },
          { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PIXEL } },
        ],
      },
    });
  });

  it('answers an MCP input request through the resolver', async () => {
    const { registry } = await calc({ resolver: ACCEPTING });
    const model = callingModel('confirm', {});
    const result = await generateText({
      model,
      tools: toAiSdkTools(registry),
      prompt: 'confirm',
      stopWhen: stepCountIs(3),
    });
    expect(toolResultSent(model)).toMatchObject({
      output: { type: 'text', value: expect.stringContaining('"yes":true') },
    });
    expect(result.steps[0]?.toolResults).toHaveLength(1);
  });

  it('reports input nobody answered as a typed tool error the host can resume', async () => {
    const registry = new InMemoryToolRegistry();
    const ask = askingTool();
    registry.register(ask);
    const model = callingModel('ask', {});
    const result = await generateText({
      model,
      tools: toAiSdkTools(registry),
      prompt: 'ask',
      stopWhen: stepCountIs(3),
    });

    const errorPart = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    const error = errorPart?.type === 'tool-error' ? errorPart.error : undefined;
    expect(error).toBeInstanceOf(ToolInputRequiredError);
    expect(isToolInputRequiredError(error)).toBe(true);
    const pending = error as ToolInputRequiredError;
    expect(pending.tool).toBe('ask');
    expect(pending.inputRequests.name?.method).toBe('elicitation/create');
    expect(toolResultSent(model)).toMatchObject({ output: { type: 'error-text' } });

    const resumed = await ask.invoke(pending.args, {
      signal: new AbortController().signal,
      resume: { inputResponses: { name: 'Ada' }, state: pending.state },
    });
    expect(resumed).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('Ada') }],
    });
  });

  it('passes the SDK abort signal and arguments to invoke', async () => {
    const echo = localTool('local', async (args) => ({
      content: [{ type: 'text', text: JSON.stringify(args) }],
    }));
    const tools = toAiSdkTools([echo]);
    const controller = new AbortController();
    const output = await tools.local?.execute?.(
      { n: 1 },
      { toolCallId: 'x', messages: [], abortSignal: controller.signal, context: {} },
    );
    expect(output).toEqual({ content: [{ type: 'text', text: '{"n":1}' }] });
    expect(echo.seen[0]?.context.signal).toBe(controller.signal);
    expect(echo.seen[0]?.context.resolver).toBeUndefined();
    // A resolver given to the adapter reaches every call.
    const withResolver = toAiSdkTools([echo], { resolver: ACCEPTING });
    await withResolver.local?.execute?.({}, { toolCallId: 'y', messages: [], context: {} });
    expect(echo.seen[1]?.context.resolver).toBe(ACCEPTING);
    expect(echo.seen[1]?.context.signal.aborted).toBe(false);
  });
});

describe('fromAiSdkTools', () => {
  const weather = tool({
    description: 'Weather in a city',
    inputSchema: z.object({
      city: z.string(),
      unit: z.enum(['c', 'f']).default('c'),
      when: z
        .string()
        .transform((s) => s.trim())
        .optional(),
    }),
    execute: async ({ city, unit, when }) => ({ city, unit, when: when ?? null, degrees: 21 }),
  });

  it('converts zod schemas once, reports losses and validates like the SDK', async () => {
    const losses: string[] = [];
    const [host] = fromAiSdkTools({ weather }, { onLosses: (name) => losses.push(name) });
    expect(host?.name).toBe('weather');
    expect(host?.description).toBe('Weather in a city');
    expect(host?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } },
      required: ['city'],
    });
    expect(losses).toEqual(['weather']);

    const signal = new AbortController().signal;
    const ok = await host?.invoke({ city: 'Oslo', when: '  now ' }, { signal });
    expect(ok).toMatchObject({
      structuredContent: { city: 'Oslo', unit: 'c', when: 'now', degrees: 21 },
    });
    const bad = (await host?.invoke({ city: 3 }, { signal })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(bad.content[0]).toMatchObject({ text: expect.stringContaining('weather') });
  });

  it('keeps jsonSchema() schemas, follows toModelOutput and streaming tools, reports skips', async () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const skipped: string[] = [];
    const hosts = fromAiSdkTools(
      {
        search: tool({
          inputSchema: jsonSchema<{ q: string }>(schema as never),
          execute: async ({ q }) => ({ hits: [q] }),
          toModelOutput: ({ output }) => ({ type: 'text', value: `hits: ${output.hits.join()}` }),
        }),
        stream: tool({
          inputSchema: z.object({}),
          execute: async function* () {
            yield 'partial';
            yield 'final';
          },
        }),
        broken: tool({
          inputSchema: z.object({}),
          execute: async (): Promise<string> => {
            throw new Error('no network');
          },
        }),
        client: tool({ inputSchema: z.object({}), outputSchema: z.string() }),
      },
      { onSkipped: (name, reason) => skipped.push(`${name}: ${reason}`) },
    );
    expect(hosts.map((h) => h.name)).toEqual(['search', 'stream', 'broken']);
    expect(skipped).toEqual(['client: no execute function']);
    expect(hosts[0]?.inputSchema).toEqual(schema);

    const signal = new AbortController().signal;
    expect(await hosts[0]?.invoke({ q: 'mcp' }, { signal })).toEqual({
      content: [{ type: 'text', text: 'hits: mcp' }],
    });
    expect(await hosts[1]?.invoke({}, { signal })).toEqual({
      content: [{ type: 'text', text: 'final' }],
    });
    expect(await hosts[2]?.invoke({}, { signal })).toEqual({
      content: [{ type: 'text', text: 'no network' }],
      isError: true,
    });
  });

  it('round-trips: AI SDK tool → host tool → AI SDK tool inside generateText', async () => {
    const registry = new InMemoryToolRegistry();
    for (const host of fromAiSdkTools({ weather })) registry.register(host);
    const model = callingModel('weather', { city: 'Rome' });
    const result = await generateText({
      model,
      tools: toAiSdkTools(registry),
      prompt: 'weather',
      stopWhen: stepCountIs(3),
    });
    const output = result.steps[0]?.toolResults[0]?.output as CallToolResult;
    expect(output.structuredContent).toEqual({ city: 'Rome', unit: 'c', when: null, degrees: 21 });
  });
});
