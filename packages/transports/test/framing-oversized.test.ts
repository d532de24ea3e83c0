/**
 * What an oversized message was, read from the bytes kept of it (`peekEnvelope`), and when the
 * NDJSON decoder reports it: at once when its first bytes tell, else when its line ends.
 */
import { type LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { peekEnvelope } from '../src/framing/envelope-peek';
import { encodeNdjsonLine, NdjsonDecoder, type NdjsonFrame } from '../src/framing/index';

const utf8 = (text: string) => new TextEncoder().encode(text);
const pad = 'x'.repeat(5000);

function tooLarge(frames: NdjsonFrame[]): LocalError[] {
  return frames.flatMap((f) => (f.ok ? [] : [f.error]));
}

describe('peekEnvelope', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":7,"result":{"text":"', undefined, { kind: 'response', id: 7 }],
    ['{"jsonrpc":"2.0","id":"a","error":{"code":1', undefined, { kind: 'response', id: 'a' }],
    ['{"jsonrpc":"2.0","id":3,"method":"x","params":{', undefined, { kind: 'request', id: 3 }],
    [
      '{"jsonrpc":"2.0","method":"notifications/message","params":{',
      undefined,
      {
        kind: 'notification',
      },
    ],
    // The official SDK writes `result` first: the id is at the end.
    [
      '{"result":{"content":[{"text":"',
      '"}]},"jsonrpc":"2.0","id":12}',
      { kind: 'response', id: 12 },
    ],
    ['{"result":{"a":"', 'b"},"id":12,"jsonrpc":"2.0"}\r', { kind: 'response', id: 12 }],
    // An id inside the result is not the message's id.
    ['{"result":{"x":"', 'y","id":9}}', { kind: 'response' }],
    ['{"result":"', 'tail \\",\\"id\\":4}"}', { kind: 'response' }],
    ['{"params":{"a":"', 'b"},"method":"m","jsonrpc":"2.0"}', { kind: 'notification' }],
    ['{"jsonrpc":"2.0"', undefined, { kind: 'unknown' }],
    ['{"jsonrpc":"2.0","id":12', undefined, { kind: 'unknown' }],
    ['[{"jsonrpc":"2.0","id":1', undefined, { kind: 'unknown' }],
    ['garbage', 'more garbage', { kind: 'unknown' }],
  ])('%s … %s', (head, tail, expected) => {
    expect(peekEnvelope(head, tail)).toEqual(expected);
  });
});

describe('NdjsonDecoder and oversized lines', () => {
  const response = (text: string) =>
    `{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":5}\n`;

  it('a response whose id comes last is reported when its line ends, with the id', () => {
    const decoder = new NdjsonDecoder({ maxMessageBytes: 1000 });
    const bytes = utf8(
      `${response(pad)}${encodeNdjsonLine({ jsonrpc: '2.0', id: 6, result: {} })}`,
    );
    const frames: NdjsonFrame[] = [];
    for (let i = 0; i < bytes.length; i += 333) {
      const out = decoder.push(bytes.subarray(i, i + 333));
      // Nothing is said before the line ends: only its end carries the id.
      if (i + 333 < 5000) expect(out).toEqual([]);
      frames.push(...out);
    }
    expect(frames).toHaveLength(2);
    expect(tooLarge(frames)[0]).toMatchObject({
      code: LocalErrorCode.MessageTooLarge,
      details: { maxMessageBytes: 1000, kind: 'response', id: 5 },
    });
    expect(frames[1]).toEqual({ ok: true, message: { jsonrpc: '2.0', id: 6, result: {} } });
  });

  it('a response whose id comes first is reported at once, before its line ends', () => {
    const decoder = new NdjsonDecoder({ maxMessageBytes: 1000 });
    const head = utf8(`{"jsonrpc":"2.0","id":8,"result":{"text":"${pad}`);
    const [error] = tooLarge(decoder.push(head));
    expect(error?.details).toEqual({ maxMessageBytes: 1000, kind: 'response', id: 8 });
    expect(decoder.bufferedBytes).toBe(0);
    expect(decoder.push(utf8(`${pad}"}}\n`))).toEqual([]);
  });

  it('keeps its memory bounded while a huge line goes by in small chunks', () => {
    const decoder = new NdjsonDecoder({ maxMessageBytes: 100 });
    decoder.push(utf8('{"result":"'));
    for (let i = 0; i < 1000; i++) {
      expect(decoder.push(utf8('y'.repeat(97)))).toEqual([]);
      expect(decoder.bufferedBytes).toBe(0);
    }
    const [error] = tooLarge(decoder.push(utf8('","jsonrpc":"2.0","id":41}\n')));
    expect(error?.details).toMatchObject({ kind: 'response', id: 41 });
  });

  it('a line whose end the stream cut off is reported without reading its tail', () => {
    const decoder = new NdjsonDecoder({ maxMessageBytes: 100 });
    expect(decoder.push(utf8(`{"result":"${pad}","id":3}`))).toEqual([]);
    const [error] = tooLarge(decoder.end());
    expect(error?.details).toEqual({ maxMessageBytes: 100, kind: 'response' });
  });
});
