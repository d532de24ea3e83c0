import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { type SseEvent, SseParser, type SseParserOptions } from '../src/sse/parser';

interface Parsed {
  events: SseEvent[];
  retries: number[];
  comments: string[];
  oversized: LocalError[];
  truncated: boolean;
  lastEventId: string;
}

/** Feeds `chunks` (strings or bytes) and ends the stream. */
function parse(chunks: Iterable<string | Uint8Array>, options?: SseParserOptions): Parsed {
  const out: Omit<Parsed, 'truncated' | 'lastEventId'> = {
    events: [],
    retries: [],
    comments: [],
    oversized: [],
  };
  const parser = new SseParser(
    {
      onEvent: (event) => out.events.push(event),
      onRetry: (ms) => out.retries.push(ms),
      onComment: (text) => out.comments.push(text),
      onOversized: (error) => out.oversized.push(error),
    },
    options,
  );
  for (const chunk of chunks) parser.feed(chunk);
  const { truncated } = parser.end();
  return { ...out, truncated, lastEventId: parser.lastEventId };
}

const bytes = (text: string) => new TextEncoder().encode(text);
const event = (data: string, type = 'message', lastEventId = ''): SseEvent => ({
  type,
  data,
  lastEventId,
});

/** A stream that exercises every rule at once; every split point must give the same result. */
const CORPUS =
  '\ufeff: hello comment\r\n' +
  'event: greeting\r\ndata: 你好\r\ndata:  two spaces\r\nid: 1\r\n\r\n' +
  'data: cr only\rdata: 😀 emoji\r\r' +
  'retry: 2500\nid: bad\u0000id\ndata\n\n' +
  'unknown: field\ndata:{"jsonrpc":"2.0","method":"x"}\n\n' +
  'event: lonely\n\n' +
  ':\n' +
  'data: tail\r\n\r\n';

const CORPUS_EVENTS: SseEvent[] = [
  event('你好\n two spaces', 'greeting', '1'),
  event('cr only\n😀 emoji', 'message', '1'),
  event('', 'message', '1'),
  event('{"jsonrpc":"2.0","method":"x"}', 'message', '1'),
  event('tail', 'message', '1'),
];

describe('SseParser', () => {
  it('parses a whole stream: events, comments, retry, ids', () => {
    const result = parse([CORPUS]);
    expect(result.events).toEqual(CORPUS_EVENTS);
    expect(result.comments).toEqual([' hello comment', '']);
    expect(result.retries).toEqual([2500]);
    expect(result.truncated).toBe(false);
    expect(result.lastEventId).toBe('1');
  });

  it('gives the same result for every split point of the text', () => {
    const expected = parse([CORPUS]);
    for (let at = 0; at <= CORPUS.length; at++) {
      const result = parse([CORPUS.slice(0, at), CORPUS.slice(at)]);
      expect(result, `split at ${at}`).toEqual(expected);
    }
  });

  it('gives the same result for every split point of the bytes, and byte by byte', () => {
    const expected = parse([CORPUS]);
    const all = bytes(CORPUS);
    for (let at = 0; at <= all.length; at++) {
      const result = parse([all.subarray(0, at), all.subarray(at)]);
      expect(result, `byte split at ${at}`).toEqual(expected);
    }
    const oneByOne = Array.from(all, (byte) => Uint8Array.of(byte));
    expect(parse(oneByOne)).toEqual(expected);
  });

  it('gives the same result for every pair of split points', () => {
    const text = 'data: a\r\ndata: b\r\r\nid: 7\ndata: 😀\r\n\n';
    const expected = parse([text]);
    expect(expected.events).toEqual([event('a\nb'), event('😀', 'message', '7')]);
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) {
        const result = parse([text.slice(0, i), text.slice(i, j), text.slice(j)]);
        expect(result, `splits at ${i}, ${j}`).toEqual(expected);
      }
    }
  });

  it('treats a CR ending one chunk and an LF starting the next as one line ending', () => {
    const result = parse(['data: a\r', '\ndata: b\r', '\n\r', '\n']);
    expect(result.events).toEqual([event('a\nb')]);
  });

  it('treats CR, LF and CRLF alike, and CR CR as a blank line', () => {
    expect(parse(['data: 1\rdata: 2\ndata: 3\r\n\r']).events).toEqual([event('1\n2\n3')]);
    expect(parse(['data: x\r\r']).events).toEqual([event('x')]);
  });

  it('strips one space after the colon, no more, and joins data lines with LF', () => {
    const result = parse(['data:a\ndata: b\ndata:  c\ndata:\ndata\n\n']);
    expect(result.events).toEqual([event('a\nb\n c\n\n')]);
  });

  it('ignores a BOM only at the very start of the stream', () => {
    expect(parse(['\ufeffdata: x\n\n']).events).toEqual([event('x')]);
    expect(parse([bytes('\ufeffdata: x\n\n')]).events).toEqual([event('x')]);
    // A BOM later is part of a field name, which is then unknown.
    expect(parse(['data: x\n\n', '\ufeffdata: y\n\n']).events).toEqual([event('x')]);
  });

  it('does not dispatch an event without data, but keeps its id', () => {
    const result = parse(['event: nothing\nid: 42\n\n', 'data: next\n\n']);
    expect(result.events).toEqual([event('next', 'message', '42')]);
  });

  it('ignores ids containing NUL and lets an empty id reset the last id', () => {
    const result = parse(['id: a\ndata: 1\n\nid: b\u0000\ndata: 2\n\nid\ndata: 3\n\n']);
    expect(result.events.map((e) => e.lastEventId)).toEqual(['a', 'a', '']);
  });

  it('accepts retry only when it is all digits', () => {
    const result = parse(['retry: 10\nretry: -1\nretry: 1.5\nretry:\nretry:  20\nretry: 030\n\n']);
    expect(result.retries).toEqual([10, 30]);
  });

  it('starts from a given last event id when resuming', () => {
    const result = parse(['data: x\n\n'], { lastEventId: 'resume-7' });
    expect(result.events).toEqual([event('x', 'message', 'resume-7')]);
  });

  it('does not dispatch an unterminated final event and reports the truncation', () => {
    const cases = ['data: complete\n\ndata: partial', 'data: complete\n\ndata: partial\n'];
    for (const text of cases) {
      const result = parse([text]);
      expect(result.events).toEqual([event('complete')]);
      expect(result.truncated).toBe(true);
    }
    expect(parse(['data: complete\n\n: trailing comment\n']).truncated).toBe(false);
    expect(parse(['data: complete\n\nid: 5\n']).truncated).toBe(false);
  });

  it('reports truncation when bytes end inside a UTF-8 sequence', () => {
    const all = bytes('data: 😀');
    const result = parse([all.subarray(0, all.length - 2)]);
    expect(result.events).toEqual([]);
    expect(result.truncated).toBe(true);
  });

  it('replaces invalid UTF-8 with U+FFFD instead of failing', () => {
    const result = parse([Uint8Array.of(...bytes('data: a'), 0xff, ...bytes('b\n\n'))]);
    expect(result.events).toEqual([event('a\ufffdb')]);
  });

  it('drops an event over maxEventBytes, reports it, and resynchronises', () => {
    const big = 'x'.repeat(100);
    const result = parse([`data: small\n\ndata: ${big}\ndata: more\n\ndata: after\n\n`], {
      maxEventBytes: 64,
    });
    expect(result.events).toEqual([event('small'), event('after')]);
    expect(result.oversized).toHaveLength(1);
    const error = result.oversized[0] as LocalError;
    expect(error).toBeInstanceOf(LocalError);
    expect(error.code).toBe(LocalErrorCode.MessageTooLarge);
    expect(error.details).toEqual({ limit: 64 });
  });

  it('counts the limit in UTF-8 bytes, across data lines', () => {
    // 20 three-byte characters = 60 bytes + "data: " = 66 bytes: over a 64-byte limit.
    const result = parse([`data: ${'€'.repeat(20)}\n\n`, 'data: ok\n\n'], {
      maxEventBytes: 64,
    });
    expect(result.events).toEqual([event('ok')]);
    expect(result.oversized).toHaveLength(1);
    const split = parse(
      ['data: 0123456789012345678901234567\ndata: 0123456789012345678901234567\n\n'],
      {
        maxEventBytes: 64,
      },
    );
    expect(split.events).toEqual([]);
    expect(split.oversized).toHaveLength(1);
  });

  it('parses a 16 MiB event fed in 64 KiB chunks', () => {
    const payload = 'abcdefgh'.repeat(2 * 1024 * 1024);
    const all = bytes(`data: ${payload}\n\n`);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < all.length; at += 64 * 1024)
      chunks.push(all.subarray(at, at + 64 * 1024));
    const result = parse(chunks);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]?.data.length).toBe(payload.length);
    expect(result.events[0]?.data === payload).toBe(true);
  });
});
