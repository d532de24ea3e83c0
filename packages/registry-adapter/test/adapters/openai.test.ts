/**
 * The OpenAI adapter against the real `openai` client talking to a scripted Chat Completions /
 * Responses endpoint on 127.0.0.1: tool definitions (plain and strict) go out, the model's
 * function calls run against tools imported from a real twofold MCP server, and the answers go
 * back in the next request. Also OpenAI definitions + code as host tools.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@twofold/protocol/experimental';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dropStrictNulls,
  fromOpenAiTools,
  runOpenAiToolCall,
  ToolInputRequiredError,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
} from '../../src/openai';
import { InMemoryToolRegistry } from '../../src/registry/memory';
import { ADD_INPUT, askingTool, ECHO_INPUT, importCalc, localTool, PIXEL } from './support';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function calc() {
  const imported = await importCalc();
  cleanups.push(imported.close);
  return imported;
}

/** A fake OpenAI endpoint answering each POST with the next scripted body; records requests. */
async function fakeOpenAi(answers: unknown[]) {
  const requests: { path: string; body: Record<string, unknown> }[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    requests.push({
      path: req.url ?? '',
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
    });
    const answer = answers.shift();
    res.writeHead(answer === undefined ? 500 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer ?? { error: { message: 'no scripted answer left' } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const client = new OpenAI({
    apiKey: 'test-key',
    baseURL: `http://127.0.0.1:${port}/v1`,
    maxRetries: 0,
  });
  return { client, requests };
}

function chatAnswer(message: Record<string, unknown>, finish = 'stop') {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: finish,
        logprobs: null,
        message: { role: 'assistant', refusal: null, ...message },
      },
    ],
  };
}

function responsesAnswer(output: unknown[]) {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 0,
    model: 'gpt-test',
    status: 'completed',
    output,
  };
}

describe('Chat Completions', () => {
  it('sends imported tools, runs the tool call and sends the tool message back', async () => {
    const { registry } = await calc();
    const { client, requests } = await fakeOpenAi([
      chatAnswer(
        {
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'add', arguments: '{"a":2,"b":3}' },
            },
          ],
        },
        'tool_calls',
      ),
      chatAnswer({ content: 'The sum is 5.' }),
    ]);
    const tools = toOpenAiChatTools(registry);
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'add 2 and 3' }];

    const first = await client.chat.completions.create({ model: 'gpt-test', messages, tools });
    const reply = first.choices[0]?.message;
    expect(reply?.tool_calls).toHaveLength(1);
    messages.push(reply as ChatCompletionMessageParam);
    for (const call of reply?.tool_calls ?? []) {
      messages.push(await runOpenAiToolCall(registry, call));
    }
    const second = await client.chat.completions.create({ model: 'gpt-test', messages, tools });

    expect(second.choices[0]?.message.content).toBe('The sum is 5.');
    const sentTools = requests[0]?.body.tools as { function: Record<string, unknown> }[];
    expect(sentTools.map((t) => t.function.name)).toEqual([
      'add',
      'confirm',
      'echo',
      'fail',
      'picture',
    ]);
    expect(sentTools[0]?.function).toEqual({
      name: 'add',
      description: 'Adds two numbers',
      parameters: ADD_INPUT,
      strict: false,
    });
    expect(requests[1]?.body.messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '5',
    });
  });

  it('sends strict schemas (changes reported) and drops the nulls strict mode adds', async () => {
    const { registry } = await calc();
    const changed: string[] = [];
    const tools = toOpenAiChatTools(registry, {
      strict: true,
      onSchemaChanges: (name, changes) => {
        expect(changes.length).toBeGreaterThan(0);
        changed.push(name);
      },
    });
    const echo = tools.find((t) => t.function.name === 'echo')?.function;
    expect(echo?.strict).toBe(true);
    expect(echo?.parameters).toMatchObject({
      additionalProperties: false,
      required: expect.arrayContaining(['text', 'times']),
    });
    expect(changed).toContain('echo');
    // The registry keeps the server's schema untouched.
    expect(registry.get('echo')?.inputSchema).toEqual(ECHO_INPUT);

    const { client, requests } = await fakeOpenAi([
      chatAnswer(
        {
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'echo', arguments: '{"text":null,"times":2}' },
            },
          ],
        },
        'tool_calls',
      ),
    ]);
    const reply = (await client.chat.completions.create({ model: 'gpt-test', messages: [], tools }))
      .choices[0]?.message;
    const call = reply?.tool_calls?.[0];
    if (!call) throw new Error('no tool call');
    expect(await runOpenAiToolCall(registry, call)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: '(nothing) (nothing)',
    });
    expect(requests[0]?.body.tools).toHaveLength(5);
  });

  it('tells the model about failures instead of failing the run', async () => {
    const { registry } = await calc();
    const run = (name: string, args: string) =>
      runOpenAiToolCall(registry, {
        id: 'c',
        type: 'function',
        function: { name, arguments: args },
      });
    expect((await run('fail', '{}')).content).toBe('Error: the disk is full');
    expect((await run('nope', '{}')).content).toBe('Error: unknown tool "nope"');
    expect((await run('add', '{"a":')).content).toMatch(
      /^Error: the arguments of tool "add" are not valid JSON/,
    );
    expect((await run('add', '[1]')).content).toBe(
      'Error: the arguments of tool "add" must be a JSON object',
    );
    const wrong = await run('add', '{"a":"x","b":1}');
    expect(wrong.content).toMatch(/^Error: /);
  });

  it('refuses names OpenAI would reject', () => {
    const bad = localTool('has.dot', async () => ({ content: [] }));
    expect(() => toOpenAiChatTools([bad])).toThrow(/has\.dot/);
  });
});

describe('Responses API', () => {
  it('sends function tools, runs the function_call and sends function_call_output', async () => {
    const { registry } = await calc();
    const functionCall = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_9',
      name: 'picture',
      arguments: '{}',
      status: 'completed',
    };
    const { client, requests } = await fakeOpenAi([
      responsesAnswer([functionCall]),
      responsesAnswer([
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'A pixel.', annotations: [] }],
        },
      ]),
    ]);
    const tools = toOpenAiResponsesTools(registry, { strict: true });
    const first = await client.responses.create({ model: 'gpt-test', input: 'draw', tools });
    const outputs = [];
    for (const item of first.output) {
      if (item.type === 'function_call') outputs.push(await runOpenAiToolCall(registry, item));
    }
    const second = await client.responses.create({
      model: 'gpt-test',
      input: [...(first.output as never[]), ...outputs],
      tools,
    });

    expect(second.output_text).toBe('A pixel.');
    const sent = requests[0]?.body.tools as Record<string, unknown>[];
    expect(sent.find((t) => t.name === 'add')).toMatchObject({
      type: 'function',
      name: 'add',
      strict: true,
      parameters: { type: 'object', additionalProperties: false, required: ['a', 'b'] },
    });
    expect(requests[1]?.body.input).toContainEqual({
      type: 'function_call_output',
      call_id: 'call_9',
      output: [
        { type: 'input_text', text: 'a pixel' },
        { type: 'input_image', image_url: `data:image/png;base64,${PIXEL}` },
      ],
    });
  });

  it('throws a typed error for input nobody answered, and resumes with the answers', async () => {
    const registry = new InMemoryToolRegistry();
    registry.register(askingTool());
    const call = { type: 'function_call', call_id: 'c', name: 'ask', arguments: '{}' } as const;
    const error = await runOpenAiToolCall(registry, call).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolInputRequiredError);
    const pending = error as ToolInputRequiredError;
    const done = await runOpenAiToolCall(registry, call, {
      resume: { inputResponses: { name: 'Ada' }, state: pending.state },
    });
    expect(done).toEqual({
      type: 'function_call_output',
      call_id: 'c',
      output: 'got {"inputResponses":{"name":"Ada"},"state":{"step":1}}',
    });
  });
});

describe('dropStrictNulls', () => {
  it('removes nulls only where the original schema forbids them', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['string', 'null'] },
        c: { type: 'string' },
        nested: { type: 'object', properties: { x: { type: 'number' } } },
        list: { type: 'array', items: { type: 'object', properties: { y: { type: 'number' } } } },
      },
      required: ['c'],
    };
    const args = { a: null, b: null, c: null, nested: { x: null }, list: [{ y: null }, { y: 1 }] };
    expect(dropStrictNulls(args, schema)).toEqual({
      b: null,
      c: null,
      nested: {},
      list: [{}, { y: 1 }],
    });
    expect(args.a).toBeNull();
  });
});

describe('fromOpenAiTools', () => {
  const weatherParameters = {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  };
  const definitions = [
    {
      type: 'function' as const,
      function: {
        name: 'get_weather',
        description: 'Weather in a city',
        parameters: weatherParameters,
      },
    },
    {
      type: 'function' as const,
      name: 'now',
      parameters: null,
      strict: false,
    },
  ];
  const implementations = {
    get_weather: async (args: Record<string, unknown>) => ({ city: args.city, degrees: 21 }),
    now: () => {
      throw new Error('clock broken');
    },
  };

  it('makes host tools that validate, run the code and map results', async () => {
    const [weather, now] = fromOpenAiTools(definitions, implementations);
    expect(weather?.inputSchema).toBe(weatherParameters);
    expect(now?.inputSchema).toEqual({ type: 'object', properties: {} });
    const signal = new AbortController().signal;
    expect(await weather?.invoke({ city: 'Oslo' }, { signal })).toEqual({
      content: [{ type: 'text', text: '{"city":"Oslo","degrees":21}' }],
      structuredContent: { city: 'Oslo', degrees: 21 },
    });
    const invalid = (await weather?.invoke({}, { signal })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(await now?.invoke({}, { signal })).toEqual({
      content: [{ type: 'text', text: 'clock broken' }],
      isError: true,
    });
  });

  it('names a definition without code', () => {
    expect(() => fromOpenAiTools(definitions, { now: () => 'x' })).toThrow(/get_weather/);
  });

  it('round-trips through the tool definitions unchanged', () => {
    const tools = toOpenAiChatTools(fromOpenAiTools(definitions, implementations));
    expect(tools[0]?.function.parameters).toBe(weatherParameters);
    expect(tools[1]?.function.name).toBe('now');
  });
});
