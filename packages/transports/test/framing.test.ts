import { type JsonRpcMessage, LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  encodeNdjsonLine,
  NdjsonDecoder,
  type NdjsonFrame,
} from '../src/framing/index';

const utf8 = (text: string) => new TextEncoder().encode(text);
const request = (id: number | string, text = 'x'): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text } },
});
const messages = (frames: NdjsonFrame[]) =>
  frames.map((frame) => {
    if (!frame.ok) throw frame.error;
    return frame.message;
  });
const errors = (frames: NdjsonFrame[]) =>
  frames.map((frame) => {
    if (frame.ok) throw new Error(`expected an error, got ${JSON.stringify(frame.message)}`);
    return frame.error;
  });

describe('NdjsonDecoder', () => {
  it('decodes several messages from one chunk, in order', () => {
    const decoder = new NdjsonDecoder();
    const bytes = utf8(encodeNdjsonLine(request(1)) + encodeNdjsonLine(request('two')));
    expect(messages(decoder.push(bytes))).toEqual([request(1), request('two')]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('joins a message fed one byte at a time', () => {
    const decoder = new NdjsonDecoder();
    const bytes = utf8(encodeNdjsonLine(request(7, 'hello')));
    const out: NdjsonFrame[] = [];
    for (let i = 0; i < bytes.length; i++) out.push(...decoder.push(bytes.subarray(i, i + 1)));
    expect(messages(out)).toEqual([request(7, 'hello')]);
  });

  it('decodes CJK and emoji split across chunks at every byte offset', () => {
    const text = '日本語のテキスト 🎉👩‍👩‍👧 ünïcødé 𝄞';
    const bytes = utf8(encodeNdjsonLine(request(1, text)) + encodeNdjsonLine(request(2, text)));
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new NdjsonDecoder();
      const out = [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut))];
      expect(messages(out), `cut at byte ${cut}`).toEqual([request(1, text), request(2, text)]);
    }
  });

  it('strips a trailing carriage return and skips empty lines', () => {
    const decoder = new NdjsonDecoder();
    const line = JSON.stringify(request(1));
    expect(messages(decoder.push(utf8(`\n\r\n${line}\r\n\n`)))).toEqual([request(1)]);
  });

  it('keeps its own copy of unfinished bytes (callers may reuse chunks)', () => {
    const decoder = new NdjsonDecoder();
    const bytes = utf8(encodeNdjsonLine(request(1, 'abc')));
    const chunk = bytes.slice(0, 10);
    decoder.push(chunk);
    chunk.fill(0x20);
    expect(messages(decoder.push(bytes.subarray(10)))).toEqual([request(1, 'abc')]);
  });

  it('reports a line that is not JSON with its truncated text, and goes on', () => {
    const decoder = new NdjsonDecoder({ previewChars: 20 });
    const banner = `Server v1.2 starting... ${'log '.repeat(50)}`;
    const frames = decoder.push(utf8(`${banner}\n${encodeNdjsonLine(request(1))}`));
    expect(frames).toHaveLength(2);
    const [bad, good] = frames;
    if (bad?.ok !== false) throw new Error('expected the banner to be reported');
    expect(bad.error).toBeInstanceOf(LocalError);
    expect(bad.error.code).toBe(LocalErrorCode.InvalidMessage);
    expect(bad.text).toBe(`${banner.slice(0, 20)}…`);
    expect(bad.error.details).toMatchObject({ text: bad.text, bytes: banner.length });
    expect(bad.error.message).toMatch(/Parse error/);
    expect(good).toEqual({ ok: true, message: request(1) });
  });

  it('reports JSON that is not a JSON-RPC envelope', () => {
    const decoder = new NdjsonDecoder();
    const [error] = errors(decoder.push(utf8('{"hello":"world"}\n{"jsonrpc":"1.0","id":1}\n')));
    expect(error?.code).toBe(LocalErrorCode.InvalidMessage);
    expect(decoder.push(utf8('42\n'))).toHaveLength(1);
  });

  it('reports a JSON array (batches are not offered)', () => {
    const decoder = new NdjsonDecoder();
    const batch = JSON.stringify([request(1), request(2)]);
    const [error] = errors(decoder.push(utf8(`${batch}\n`)));
    expect(error?.message).toMatch(/batch/i);
  });

  it('decodes invalid UTF-8 inside a string as U+FFFD and keeps the message', () => {
    const decoder = new NdjsonDecoder();
    const [head, tail] = JSON.stringify(request(1, 'AB')).split('AB') as [string, string];
    const bytes = new Uint8Array([...utf8(head), 0x41, 0xff, 0xc3, 0x42, ...utf8(tail), 0x0a]);
    const [message] = messages(decoder.push(bytes));
    expect(message).toEqual(request(1, 'A\uFFFD\uFFFDB'));
  });

  it('reports invalid UTF-8 outside strings as invalid JSON', () => {
    const decoder = new NdjsonDecoder();
    const bytes = new Uint8Array([...utf8('{"jsonrpc":"2.0",'), 0xfe, ...utf8('"id":1}\n')]);
    const [error] = errors(decoder.push(bytes));
    expect(error?.code).toBe(LocalErrorCode.InvalidMessage);
  });

  describe('message size cap', () => {
    const line = encodeNdjsonLine(request(1, 'y'.repeat(100)));
    const size = utf8(line).length - 1;

    it('accepts a message of exactly maxMessageBytes and rejects one byte more', () => {
      expect(messages(new NdjsonDecoder({ maxMessageBytes: size }).push(utf8(line)))).toHaveLength(
        1,
      );
      const [error] = errors(new NdjsonDecoder({ maxMessageBytes: size - 1 }).push(utf8(line)));
      expect(error?.code).toBe(LocalErrorCode.MessageTooLarge);
      // What the line was stays readable from its first bytes.
      expect(error?.details).toEqual({ maxMessageBytes: size - 1, kind: 'request', id: 1 });
    });

    it('reports an oversized message once, drops its bytes, and resynchronises', () => {
      const decoder = new NdjsonDecoder({ maxMessageBytes: 120 });
      const stream = utf8(`${line}${encodeNdjsonLine(request(2))}`);
      const out: NdjsonFrame[] = [];
      for (let i = 0; i < stream.length; i += 7) {
        out.push(...decoder.push(stream.subarray(i, i + 7)));
        expect(decoder.bufferedBytes).toBeLessThanOrEqual(120);
      }
      expect(out).toHaveLength(2);
      expect(out[0]?.ok === false && out[0].error.code).toBe(LocalErrorCode.MessageTooLarge);
      expect(out[1]).toEqual({ ok: true, message: request(2) });
    });

    it('defaults to 64 MiB and validates the option', () => {
      expect(new NdjsonDecoder().maxMessageBytes).toBe(DEFAULT_MAX_MESSAGE_BYTES);
      expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(64 * 1024 * 1024);
      expect(() => new NdjsonDecoder({ maxMessageBytes: 0 })).toThrow(RangeError);
      expect(() => new NdjsonDecoder({ maxMessageBytes: 1.5 })).toThrow(RangeError);
    });
  });

  describe('end of stream', () => {
    it('delivers a complete last message that lacks its newline', () => {
      const decoder = new NdjsonDecoder();
      expect(decoder.push(utf8(JSON.stringify(request(1))))).toEqual([]);
      expect(messages(decoder.end())).toEqual([request(1)]);
    });

    it('reports a message cut off by the end of the stream', () => {
      const decoder = new NdjsonDecoder();
      decoder.push(utf8(encodeNdjsonLine(request(1)).slice(0, 20)));
      const [error] = errors(decoder.end());
      expect(error?.code).toBe(LocalErrorCode.InvalidMessage);
      expect(error?.message).toMatch(/stream ended inside a message \(20 bytes/);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('reports nothing more for an oversized message already reported', () => {
      const decoder = new NdjsonDecoder({ maxMessageBytes: 8 });
      expect(errors(decoder.push(utf8('{"jsonrpc":"2.0","id":1,"result"')))).toHaveLength(1);
      expect(decoder.end()).toEqual([]);
    });

    it('reports an oversized message cut off by the end once, at the end', () => {
      const decoder = new NdjsonDecoder({ maxMessageBytes: 8 });
      // Its first bytes do not tell what it is: the report waits for the line to end.
      expect(decoder.push(utf8('{"jsonrpc":"2.0"'))).toEqual([]);
      const [error] = errors(decoder.end());
      expect(error?.code).toBe(LocalErrorCode.MessageTooLarge);
      expect(decoder.end()).toEqual([]);
    });
  });
});

describe('encodeNdjsonLine', () => {
  it('writes one line per message, even when strings hold line breaks', () => {
    const message = request(1, 'a\nb\r\nc\u2028d\u0000');
    const line = encodeNdjsonLine(message);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(messages(new NdjsonDecoder().push(utf8(line)))).toEqual([message]);
  });
});
