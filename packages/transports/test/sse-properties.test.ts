// Properties of the SSE parser: a stream written by the SSE writer parses back to the same
// events under any chunking (as text or as bytes, cut inside a CRLF pair or a UTF-8 sequence),
// with any of the three line endings, and the event size cap holds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SseEvent, SseParser } from '../src/sse/parser';
import { encodeSseComment, encodeSseEvent, type SseEventInit } from '../src/sse/writer';
import { cutPoints, splitAt } from './support/chunking';

const LINE_BREAK = /\r\n|\r|\n/;
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string());
// A field value that must stay on one line (and, for ids, hold no NUL).
const oneLine = text.filter((t) => !LINE_BREAK.test(t) && !t.includes('\0'));

const eventInit: fc.Arbitrary<SseEventInit> = fc.record(
  { id: oneLine, event: oneLine, data: text, retry: fc.nat() },
  { requiredKeys: [] },
);
const item = fc.oneof(
  { weight: 4, arbitrary: eventInit.map((event) => ({ event })) },
  { weight: 1, arbitrary: text.map((comment) => ({ comment })) },
);
type Item = { event: SseEventInit } | { comment: string };

interface Parsed {
  events: SseEvent[];
  retries: number[];
  comments: string[];
  oversized: number;
  truncated: boolean;
}

function parse(chunks: readonly (string | Uint8Array)[], maxEventBytes?: number): Parsed {
  const out: Parsed = { events: [], retries: [], comments: [], oversized: 0, truncated: false };
  const parser = new SseParser(
    {
      onEvent: (event) => out.events.push(event),
      onRetry: (ms) => out.retries.push(ms),
      onComment: (comment) => out.comments.push(comment),
      onOversized: () => out.oversized++,
    },
    { maxEventBytes },
  );
  for (const chunk of chunks) parser.feed(chunk);
  out.truncated = parser.end().truncated;
  return out;
}

/** What a reader must see for `items`, by the standard's rules. */
function expected(items: readonly Item[]): Omit<Parsed, 'oversized' | 'truncated'> {
  const out = { events: [] as SseEvent[], retries: [] as number[], comments: [] as string[] };
  let lastEventId = '';
  for (const it of items) {
    if ('comment' in it) {
      for (const line of it.comment.split(LINE_BREAK)) out.comments.push(line && ` ${line}`);
      continue;
    }
    const { id, event, data, retry } = it.event;
    if (id !== undefined) lastEventId = id;
    if (retry !== undefined) out.retries.push(retry);
    // The writer sends an empty data line for an event with no field at all.
    const hasData = data !== undefined || (id ?? event ?? retry) === undefined;
    if (!hasData) continue;
    out.events.push({
      type: event || 'message',
      data: (data ?? '').split(LINE_BREAK).join('\n'),
      lastEventId,
    });
  }
  return out;
}

const encode = (items: readonly Item[]) =>
  items.map((it) => ('comment' in it ? encodeSseComment(it.comment) : encodeSseEvent(it.event)));

// One line ending per stream: a CR line before an LF-ended blank line would read as one CRLF.
const lineEnding = fc.constantFrom('\n', '\r', '\r\n');
const withEnding = (stream: string, ending: string) => stream.replace(/\n/g, ending);

describe('SseParser properties', () => {
  it('parses what the writer wrote, under any chunking of the text', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 10 }),
        lineEnding,
        fc.boolean(),
        cutPoints,
        (items, ending, bom, cuts) => {
          const stream = (bom ? '\uFEFF' : '') + withEnding(encode(items).join(''), ending);
          const parsed = parse(splitAt(stream, cuts));
          expect(parsed).toEqual({ ...expected(items), oversized: 0, truncated: false });
        },
      ),
    );
  });

  it('parses the same from bytes cut anywhere, inside UTF-8 sequences too', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 10 }),
        lineEnding,
        cutPoints,
        (items, ending, cuts) => {
          const bytes = new TextEncoder().encode(withEnding(encode(items).join(''), ending));
          const parsed = parse(splitAt(bytes, cuts));
          expect(parsed).toEqual({ ...expected(items), oversized: 0, truncated: false });
        },
      ),
    );
  });

  it('drops each event over the cap, reports it once, and keeps every other one', () => {
    const dataEvent = fc.record({ event: oneLine, data: text }, { requiredKeys: ['data'] });
    fc.assert(
      fc.property(
        fc.array(dataEvent, { maxLength: 8 }),
        fc.integer({ min: 8, max: 200 }),
        lineEnding,
        cutPoints,
        (events, cap, ending, cuts) => {
          const encoded = events.map(encodeSseEvent);
          // An event's size: the UTF-8 bytes of its field lines, line endings excluded.
          const size = (e: string) => new TextEncoder().encode(e.replace(/\n/g, '')).length;
          const kept = events.filter((_, i) => size(encoded[i] as string) <= cap);
          const parsed = parse(splitAt(withEnding(encoded.join(''), ending), cuts), cap);
          expect(parsed.events).toEqual(expected(kept.map((event) => ({ event }))).events);
          expect(parsed.oversized).toBe(events.length - kept.length);
          expect(parsed.truncated).toBe(false);
        },
      ),
    );
  });

  it('reports a stream cut inside an event as truncated, and dispatches only whole events', () => {
    // An event without data dispatches nothing, so only one with data can be cut short.
    const withData = fc.record(
      { id: oneLine, event: oneLine, data: text },
      { requiredKeys: ['data'] },
    );
    fc.assert(
      fc.property(fc.array(withData, { minLength: 1, maxLength: 6 }), cutPoints, (events, cuts) => {
        const stream = events.map(encodeSseEvent).join('');
        // Drop the final blank line: the last event is never dispatched.
        const parsed = parse(splitAt(stream.slice(0, -1), cuts));
        const whole = expected(events.slice(0, -1).map((event) => ({ event })));
        expect(parsed.events).toEqual(whole.events);
        expect(parsed.truncated).toBe(true);
      }),
    );
  });
});

describe('SseParser size accounting', () => {
  it('counts a surrogate pair split across text chunks as its 4 UTF-8 bytes', () => {
    // "data: 𐀀" is 10 bytes: at a cap of 10 it fits, however the text is cut.
    const stream = 'data: \u{10000}\n\n';
    const cut = stream.indexOf('\u{10000}') + 1;
    const parsed = parse([stream.slice(0, cut), stream.slice(cut)], 10);
    expect(parsed.events).toEqual([{ type: 'message', data: '\u{10000}', lastEventId: '' }]);
    expect(parsed.oversized).toBe(0);
  });
});
