/** The SSE encoder, checked by reading its output back with the package's SSE parser. */
import { describe, expect, it } from 'vitest';
import { type SseEvent, SseParser } from '../src/sse/parser';
import { encodeSseComment, encodeSseEvent } from '../src/sse/writer';

function parse(text: string) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = new SseParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => comments.push(comment),
    onRetry: (ms) => retries.push(ms),
  });
  parser.feed(text);
  const { truncated } = parser.end();
  return { events, comments, retries, truncated, lastEventId: parser.lastEventId };
}

describe('encodeSseEvent', () => {
  it('writes id, event and data fields ended by a blank line', () => {
    expect(encodeSseEvent({ id: '7', event: 'message', data: '{"a":1}' })).toBe(
      'id: 7\nevent: message\ndata: {"a":1}\n\n',
    );
  });

  it('splits data on LF, CR and CRLF into data lines that read back joined by LF', () => {
    const text = encodeSseEvent({ data: 'one\ntwo\r\nthree\rfour' });
    expect(text).toBe('data: one\ndata: two\ndata: three\ndata: four\n\n');
    expect(parse(text).events.map((e) => e.data)).toEqual(['one\ntwo\nthree\nfour']);
  });

  it('round-trips UTF-8, leading spaces and empty lines in data', () => {
    const data = ' leading space\n\n絵文字 🎉\n';
    const { events, truncated } = parse(encodeSseEvent({ event: 'x', data }));
    expect(truncated).toBe(false);
    expect(events).toEqual([{ type: 'x', data, lastEventId: '' }]);
  });

  it('writes a priming event: an id with empty data', () => {
    const text = encodeSseEvent({ id: '42', data: '' });
    expect(text).toBe('id: 42\ndata:\n\n');
    expect(parse(text).lastEventId).toBe('42');
  });

  it('writes retry, which the parser reports', () => {
    const text = encodeSseEvent({ retry: 1500 });
    expect(text).toBe('retry: 1500\n\n');
    expect(parse(text).retries).toEqual([1500]);
  });

  it('encodes an event with no field as an empty data line', () => {
    expect(encodeSseEvent({})).toBe('data:\n\n');
  });

  it.each([
    [{ id: 'a\nb' }],
    [{ id: 'a\0b' }],
    [{ event: 'a\rb' }],
    [{ retry: -1 }],
    [{ retry: 1.5 }],
  ])('refuses a field that would break the stream: %j', (event) => {
    expect(() => encodeSseEvent(event)).toThrow(TypeError);
  });
});

describe('encodeSseComment', () => {
  it('writes a keep-alive comment that dispatches nothing', () => {
    expect(encodeSseComment()).toBe(':\n\n');
    const { events, comments } = parse(encodeSseComment() + encodeSseComment('ping'));
    expect(events).toEqual([]);
    // The parser hands over the text after the colon as is, space included.
    expect(comments).toEqual(['', ' ping']);
  });

  it('writes multi-line text as one comment line per line', () => {
    expect(encodeSseComment('a\nb')).toBe(': a\n: b\n\n');
  });
});
