// An invalid message whose id can be read is answered with that id on stdio, as over HTTP:
// both take it from the protocol's one envelope check (`parseMessage(...).id`).
import { PassThrough } from 'node:stream';
import {
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  parseMessage,
} from '@twofold/protocol/experimental';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStdio } from '../src/node';
import type { ServedConnection } from '../src/serve/serve-transport';
import { createTestServer } from './support/test-server';

interface Served {
  input: PassThrough;
  connection: ServedConnection;
  /** The next line the server writes, parsed. */
  next(): Promise<JsonRpcMessage>;
}

const open: Served[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) {
    served.input.end();
    await served.connection.closed;
  }
});

async function serveOnStreams(): Promise<Served> {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: JsonRpcMessage[] = [];
  const waiting: ((message: JsonRpcMessage) => void)[] = [];
  let buffered = '';
  output.setEncoding('utf8');
  output.on('data', (text: string) => {
    const parts = (buffered + text).split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      const message = JSON.parse(part) as JsonRpcMessage;
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else lines.push(message);
    }
  });
  const connection = await serveStdio(createTestServer(), { input, output, onerror: () => {} });
  const next = () => {
    const line = lines.shift();
    return line ? Promise.resolve(line) : new Promise<JsonRpcMessage>((r) => waiting.push(r));
  };
  const served = { input, connection, next };
  open.push(served);
  return served;
}

const MALFORMED: ReadonlyArray<readonly [string, string, string | number | undefined]> = [
  ['a wrong jsonrpc', '{"jsonrpc":"1.0","id":7,"method":"tools/list"}', 7],
  ['no jsonrpc', '{"id":"seven","method":"tools/list"}', 'seven'],
  ['jsonrpc as a number', '{"jsonrpc":2,"id":8,"method":"tools/list"}', 8],
  ['no method', '{"jsonrpc":"2.0","id":9}', 9],
  ['no method but params', '{"jsonrpc":"2.0","id":"m","params":{}}', 'm'],
  ['a numeric method', '{"jsonrpc":"2.0","id":10,"method":5}', 10],
  ['a null method', '{"jsonrpc":"2.0","id":11,"method":null}', 11],
  ['array params', '{"jsonrpc":"2.0","id":12,"method":"tools/list","params":[1]}', 12],
  ['string params', '{"jsonrpc":"2.0","id":13,"method":"tools/list","params":"x"}', 13],
  ['null params', '{"jsonrpc":"2.0","id":14,"method":"tools/list","params":null}', 14],
  ['a negative id and a wrong jsonrpc', '{"jsonrpc":"1.0","id":-3,"method":"x"}', -3],
  // Ids that cannot be read: the answer has none (JSON-RPC's rule for unreadable ids).
  ['a null id', '{"jsonrpc":"1.0","id":null,"method":"x"}', undefined],
  ['a fractional id', '{"jsonrpc":"1.0","id":1.5,"method":"x"}', undefined],
  ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":5}', undefined],
  ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', undefined],
  // A response's id is one of the server's own: answering it by id would answer itself.
  ['a response with a non-object result', '{"jsonrpc":"2.0","id":5,"result":1}', undefined],
  ['a response with a malformed error', '{"jsonrpc":"2.0","id":6,"error":"no"}', undefined],
  ['a response with a wrong jsonrpc', '{"jsonrpc":"1.0","id":7,"result":{}}', undefined],
];

describe('stdio: invalid messages keep a readable id', () => {
  it.each(MALFORMED)('answers %s with -32600 and id %j', async (_, text, id) => {
    const { input, next } = await serveOnStreams();
    input.write(`${text}\n`);
    const answer = (await next()) as JsonRpcErrorResponse;
    expect(answer.error.code).toBe(-32600);
    if (id === undefined) expect(answer).not.toHaveProperty('id');
    else expect(answer.id).toBe(id);
  });

  it('answers text that is not JSON with -32700 and no id', async () => {
    const { input, next } = await serveOnStreams();
    input.write('{"jsonrpc":"2.0","id":1,\n');
    const answer = (await next()) as JsonRpcErrorResponse;
    expect(answer.error.code).toBe(-32700);
    expect(answer).not.toHaveProperty('id');
  });

  it('answers a malformed last line without newline by its id before closing', async () => {
    const { input, connection, next } = await serveOnStreams();
    input.end('{"jsonrpc":"2.0","id":21,"method":"tools/list","params":[]}');
    const answer = (await next()) as JsonRpcErrorResponse;
    expect(answer).toMatchObject({ id: 21, error: { code: -32600 } });
    expect(answer.error.message).toMatch(/params must be an object/);
    await connection.closed;
  });

  it('keeps serving after an invalid message: the next request is answered normally', async () => {
    const { input, next } = await serveOnStreams();
    input.write('{"jsonrpc":"2.0","id":1,"method":5}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(await next()).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(await next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('names exactly the id the protocol envelope check reads, for any malformed request (property)', async () => {
    const { input, next } = await serveOnStreams();
    const id = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.object());
    const member = (value: fc.Arbitrary<unknown>) => fc.option(value, { nil: undefined });
    const malformed = fc
      .record({
        jsonrpc: member(fc.oneof(fc.constant('2.0'), fc.constant('1.0'), fc.integer())),
        id: member(id),
        method: member(fc.oneof(fc.constant('tools/list'), fc.integer(), fc.constant(null))),
        params: member(fc.oneof(fc.array(fc.integer()), fc.string(), fc.constant(null))),
      })
      .map((fields) => JSON.stringify(fields))
      .filter((text) => !parseMessage(text).ok);
    await fc.assert(
      fc.asyncProperty(malformed, async (text) => {
        const decoded = parseMessage(text);
        input.write(`${text}\n`);
        const answer = (await next()) as JsonRpcErrorResponse;
        expect(answer.error.code).toBe(-32600);
        expect(answer.id).toBe(decoded.ok ? 'unreachable' : decoded.id);
      }),
    );
  });
});
