// Properties of the NDJSON framer: whatever the chunking (cuts inside a line, a CRLF pair or a
// UTF-8 sequence), a stream of messages yields exactly those messages, and the byte cap holds.
import { type JsonRpcMessage, LocalErrorCode, parseMessage } from '@twofold/protocol/experimental';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeNdjsonLine, NdjsonDecoder, type NdjsonFrame } from '../src/framing/index';
import { cutPoints, splitAt } from './support/chunking';

const utf8 = (text: string) => new TextEncoder().encode(text);

// Any string, lone surrogates included: JSON.stringify escapes them, so they survive too.
const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.oneof(surrogate, fc.string({ unit: 'binary', maxLength: 1 })) }),
  fc.string(),
);
const id = fc.oneof(fc.maxSafeInteger(), text);
const params = fc.dictionary(text, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });

const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0' as const), id, method: text, params }),
  fc.record(
    { jsonrpc: fc.constant('2.0' as const), method: text, params },
    { requiredKeys: ['jsonrpc', 'method'] },
  ),
  fc.record({ jsonrpc: fc.constant('2.0' as const), id, result: params }),
  fc.record({
    jsonrpc: fc.constant('2.0' as const),
    id,
    error: fc.record({ code: fc.integer(), message: text }),
  }),
);

/** A line of the stream: a message, ended by LF or CRLF, possibly after blank lines. */
const line = fc.record({ message, crlf: fc.boolean(), blankBefore: fc.boolean() });
type Line = { message: JsonRpcMessage; crlf: boolean; blankBefore: boolean };

function streamOf(lines: readonly Line[]): Uint8Array {
  let out = '';
  for (const { message: m, crlf, blankBefore } of lines) {
    if (blankBefore) out += crlf ? '\r\n' : '\n';
    const encoded = encodeNdjsonLine(m);
    out += crlf ? `${encoded.slice(0, -1)}\r\n` : encoded;
  }
  return utf8(out);
}

/** What the decoder makes of `chunks`, checking the buffer stays within the cap throughout. */
function decodeAll(decoder: NdjsonDecoder, chunks: readonly Uint8Array[]): NdjsonFrame[] {
  const frames: NdjsonFrame[] = [];
  for (const chunk of chunks) {
    frames.push(...decoder.push(chunk));
    expect(decoder.bufferedBytes).toBeLessThanOrEqual(decoder.maxMessageBytes);
  }
  frames.push(...decoder.end());
  return frames;
}

// What a message is after the JSON round trip (-0 becomes 0, and so on).
const asSent = (m: JsonRpcMessage) => JSON.parse(JSON.stringify(m)) as JsonRpcMessage;

describe('NdjsonDecoder properties', () => {
  it('yields exactly the messages sent, in order, under any chunking', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), cutPoints, (lines, cuts) => {
        const frames = decodeAll(new NdjsonDecoder(), splitAt(streamOf(lines), cuts));
        expect(frames.every((f) => f.ok)).toBe(true);
        expect(frames.map((f) => (f.ok ? f.message : undefined))).toEqual(
          lines.map((l) => asSent(l.message)),
        );
      }),
    );
  });

  it('still yields a last message that lacks its newline', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), cutPoints, (sent, cuts) => {
        const whole = utf8(sent.map(encodeNdjsonLine).join('').slice(0, -1));
        const frames = decodeAll(new NdjsonDecoder(), splitAt(whole, cuts));
        expect(frames.map((f) => (f.ok ? f.message : f.error.code))).toEqual(sent.map(asSent));
      }),
    );
  });

  it('keeps every line within the cap and reports each longer one once, in place', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 10 }),
        fc.integer({ min: 24, max: 300 }),
        cutPoints,
        (lines, cap, cuts) => {
          const frames = decodeAll(
            new NdjsonDecoder({ maxMessageBytes: cap }),
            splitAt(streamOf(lines), cuts),
          );
          // The cap counts the line without its LF (a CR before it counts).
          const expected = lines.map(({ message: m, crlf }) =>
            utf8(JSON.stringify(m)).length + (crlf ? 1 : 0) <= cap
              ? asSent(m)
              : LocalErrorCode.MessageTooLarge,
          );
          expect(frames.map((f) => (f.ok ? f.message : f.error.code))).toEqual(expected);
        },
      ),
    );
  });

  it('reports each garbage line once and loses none of the messages around it', () => {
    const garbage = text.map((t) => `#${t.replace(/[\r\n]/g, ' ')}`);
    const entry = fc.oneof(
      message.map((m) => ({ m })),
      garbage.map((g) => ({ g })),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), cutPoints, (entries, cuts) => {
        const stream = entries.map((e) => ('m' in e ? encodeNdjsonLine(e.m) : `${e.g}\n`));
        const frames = decodeAll(new NdjsonDecoder(), splitAt(utf8(stream.join('')), cuts));
        expect(frames.map((f) => (f.ok ? f.message : f.error.code))).toEqual(
          entries.map((e) => ('m' in e ? asSent(e.m) : LocalErrorCode.InvalidMessage)),
        );
      }),
    );
  });

  it('names the id the protocol reads from an invalid envelope, and only that', () => {
    const field = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
    const envelope = fc
      .record({
        jsonrpc: field(fc.constantFrom('2.0', '1.0', 2)),
        id: field(fc.oneof(id, fc.constant(null), fc.double(), fc.object())),
        method: field(fc.oneof(text, fc.integer(), fc.constant(null))),
        params: field(fc.oneof(params, fc.array(fc.integer()), text)),
      })
      .map((fields) => JSON.stringify(fields));
    fc.assert(
      fc.property(envelope, (json) => {
        const decoded = parseMessage(json);
        const [frame] = new NdjsonDecoder().push(utf8(`${json}\n`));
        expect(frame?.ok).toBe(decoded.ok);
        if (frame && !frame.ok && !decoded.ok) expect(frame.error.details?.id).toBe(decoded.id);
      }),
    );
  });
});

describe('NdjsonDecoder at end of stream', () => {
  it('says what is wrong with a whole last line, rather than that it was cut off', () => {
    const decoder = new NdjsonDecoder();
    decoder.push(utf8('{"jsonrpc":"1.0","id":4,"method":"ping"}'));
    const [frame] = decoder.end();
    expect(frame?.ok).toBe(false);
    if (frame && !frame.ok) {
      expect(frame.error.code).toBe(LocalErrorCode.InvalidMessage);
      expect(frame.error.message).toMatch(/jsonrpc must be "2.0"/);
      expect(frame.error.details).toMatchObject({ id: 4 });
    }
  });
});
