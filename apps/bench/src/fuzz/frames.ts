/**
 * The adversarial frames of the fuzz: a seeded stream of malformed, hostile and valid JSON-RPC
 * messages, each with what the server must answer. Valid requests are interleaved with the
 * rest so a bad frame that confuses the server shows as a missing or wrong answer nearby.
 */
import { buildRequestHeaders, type RequestId } from '@twofold/protocol/experimental';
import type { Prng } from './prng';

export const MODERN_VERSION = '2026-07-28';

/**
 * What a frame must get back. `answer`: exactly one response carrying its id (a result or an
 * error); `error`: exactly one error response carrying its id; `anonymous`: one error without an
 * id (over HTTP, a 4xx status); `none`: nothing (over HTTP, 202 and no body).
 */
export type Expect = 'answer' | 'error' | 'anonymous' | 'none';

export type FuzzTransport = 'stdio' | 'http';

export interface Frame {
  kind: string;
  /** The message bytes, without a newline (none inside either). */
  body: Uint8Array;
  /** The id the answer must carry (`answer` and `error`). */
  id?: RequestId;
  expect: Expect;
  /** HTTP only: the request headers. */
  headers: Record<string, string>;
}

/** What the generator needs to know of the server under test. */
export interface FrameLimits {
  /** Largest message the server accepts (stdio line or HTTP body), in bytes. */
  maxMessageBytes: number;
  /** How many oversized frames a run may send (each costs `maxMessageBytes` of memory). */
  oversized: number;
}

export const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-fuzz', version: '1.0.0' },
};
const BASE_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_VERSION,
};
const encoder = new TextEncoder();
const NEWLINE = 0x0a;

type Message = Record<string, unknown>;

/** The headers a correct client sends with `message` (those of a modern request when it has one). */
function headersFor(message: unknown): Record<string, string> {
  const m = message as { method?: unknown; params?: unknown };
  if (typeof m?.method !== 'string') return { ...BASE_HEADERS };
  try {
    const built = buildRequestHeaders(m as { method: string }, MODERN_VERSION);
    // Lower-cased, so a fault below replaces a header rather than adding a second spelling.
    const lower = Object.entries(built).map(([name, value]) => [name.toLowerCase(), value]);
    return { ...BASE_HEADERS, ...Object.fromEntries(lower) };
  } catch {
    return { ...BASE_HEADERS };
  }
}

function textFrame(kind: string, text: string, expect: Expect, message?: unknown, id?: RequestId) {
  return { kind, body: encoder.encode(text), id, expect, headers: headersFor(message) };
}

function jsonFrame(kind: string, message: Message, expect: Expect, id?: RequestId): Frame {
  return textFrame(kind, JSON.stringify(message), expect, message, id);
}

/** A text that stresses encoders: quotes, escapes, lone surrogates, astral characters. */
function hostileText(rng: Prng): string {
  const pieces = ['plain', '"quoted"', '\\', '\u0000\u001f', '\u2028', '\ud800', '🦊', 'ид', ' '];
  return Array.from({ length: rng.int(0, 12) }, () => rng.pick(pieces)).join('');
}

/** A fresh request id in one of the shapes JSON-RPC allows, including the awkward ones. */
function requestId(rng: Prng, n: number): RequestId {
  switch (rng.int(0, 5)) {
    case 0:
      return `f-${n}`;
    case 1:
      // Exactly representable and distinct, far beyond Number.MAX_SAFE_INTEGER.
      return (n + 1) * 2 ** 60;
    case 2:
      return -(n + 1);
    case 3:
      return `${'i'.repeat(rng.int(1000, 60_000))}-${n}`;
    case 4:
      return `ид-🦊-${n}`;
    default:
      return n;
  }
}

const request = (id: RequestId, method: string, params: Message = {}): Message => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { _meta: META, ...params },
});

const echoCall = (id: RequestId, text: string) =>
  request(id, 'tools/call', { name: 'echo', arguments: { text } });

/** `[` × depth then `]` × depth, built as text (serializing it would overflow the stack). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Bytes that are not UTF-8: a lone continuation, a truncated sequence, an overlong slash. */
const INVALID_UTF8 = [[0xff], [0x80], [0xc3], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80]];

function withInvalidUtf8(rng: Prng, json: string, placeholder: string): Uint8Array {
  const at = json.indexOf(placeholder);
  return Uint8Array.from([
    ...encoder.encode(json.slice(0, at)),
    ...rng.pick(INVALID_UTF8),
    ...encoder.encode(json.slice(at + placeholder.length)),
  ]);
}

/** Random bytes that cannot parse as JSON (a leading `#`) and hold no newline. */
function garbage(rng: Prng): Uint8Array {
  const bytes = rng.bytes(rng.int(1, 300)).map((b) => (b === NEWLINE ? 0x20 : b));
  return Uint8Array.from([0x23, ...bytes]);
}

type Maker = (rng: Prng, id: RequestId, transport: FuzzTransport) => Frame;

const VALID: readonly Maker[] = [
  (rng, id) => jsonFrame('valid echo', echoCall(id, hostileText(rng)), 'answer', id),
  (_, id) => jsonFrame('valid tools/list', request(id, 'tools/list'), 'answer', id),
  (_, id) => jsonFrame('valid server/discover', request(id, 'server/discover'), 'answer', id),
  (_, id) => jsonFrame('unknown method', request(id, 'fuzz/nothing'), 'answer', id),
  (_, id) =>
    jsonFrame(
      'unknown tool',
      request(id, 'tools/call', { name: 'nope', arguments: {} }),
      'answer',
      id,
    ),
  (_, id) =>
    jsonFrame(
      'echo, wrong argument type',
      request(id, 'tools/call', { name: 'echo', arguments: { text: 5 } }),
      'answer',
      id,
    ),
  (_, id) =>
    jsonFrame('request without _meta', { jsonrpc: '2.0', id, method: 'tools/list' }, 'answer', id),
  (rng, id) => {
    const message = echoCall(id, 'deep');
    const text = JSON.stringify(message).replace(
      '"deep"}',
      `"deep","nested":${nested(rng.int(1000, 100_000))}}`,
    );
    return textFrame('deeply nested arguments', text, 'answer', message, id);
  },
  (rng) => {
    const method = rng.pick(['notifications/cancelled', 'notifications/fuzz']);
    const message = { jsonrpc: '2.0', method, params: { _meta: META, requestId: 'nobody' } };
    return jsonFrame('notification', message, 'none');
  },
];

const ENVELOPE: readonly Maker[] = [
  (rng, id) => {
    const jsonrpc = rng.pick(['1.0', 2, null, '2.0 ', undefined]);
    return jsonFrame('wrong jsonrpc', { ...request(id, 'tools/list'), jsonrpc }, 'error', id);
  },
  (rng, id) => {
    const method = rng.pick([5, null, {}, [], true]);
    return jsonFrame('wrong method type', { ...request(id, 'tools/list'), method }, 'error', id);
  },
  (rng, id) => {
    const params = rng.pick([[], 'params', 7, null, true]);
    return jsonFrame('wrong params type', { ...request(id, 'tools/list'), params }, 'error', id);
  },
  (_, id) => jsonFrame('neither request nor response', { jsonrpc: '2.0', id }, 'error', id),
  (rng, id) => {
    const wrongId = rng.pick([{}, [id], true, 1.5, null]);
    return jsonFrame('wrong id type', { ...request(id, 'tools/list'), id: wrongId }, 'anonymous');
  },
  (rng, id) => {
    const text = JSON.stringify(echoCall(id, 'cut'));
    return textFrame('truncated frame', text.slice(0, rng.int(1, text.length - 1)), 'anonymous');
  },
  (rng) => ({
    kind: 'invalid JSON',
    body: garbage(rng),
    expect: 'anonymous',
    headers: headersFor(undefined),
  }),
  (rng) => textFrame('not an object', rng.pick(['42', '"text"', 'null', 'true']), 'anonymous'),
  (_, id) =>
    textFrame('batch', JSON.stringify([echoCall(id, 'a'), echoCall(`${id}-b`, 'b')]), 'anonymous'),
  (rng) => textFrame('deeply nested array', nested(rng.int(1000, 100_000)), 'anonymous'),
  (rng, id, transport) => {
    const message = echoCall(id, 'UTF8');
    const body = withInvalidUtf8(rng, JSON.stringify(message), 'UTF8');
    // A stdio line decodes invalid bytes to U+FFFD; an HTTP body must be UTF-8 as a whole.
    const expect = transport === 'stdio' ? 'answer' : 'anonymous';
    return {
      kind: 'invalid UTF-8 in a string',
      body,
      id: expect === 'answer' ? id : undefined,
      expect,
      headers: headersFor(message),
    };
  },
  (rng, id) => {
    const message = echoCall(id, 'x');
    const json = JSON.stringify(message);
    const body = withInvalidUtf8(rng, ` ${json}`, ' ');
    return {
      kind: 'invalid UTF-8 outside strings',
      body,
      expect: 'anonymous',
      headers: headersFor(message),
    };
  },
  (_, id, transport) => {
    const message = { jsonrpc: '2.0', id, result: {} };
    return jsonFrame(
      'response to no request',
      message,
      transport === 'stdio' ? 'none' : 'anonymous',
    );
  },
];

/** Header faults: a valid body with what a careless or hostile HTTP client sends beside it. */
const HEADERS: readonly ((frame: Frame, rng: Prng) => Frame)[] = [
  (frame) => withHeaders(frame, 'Mcp-Method mismatch', 'error', { 'mcp-method': 'fuzz/mismatch' }),
  (frame) => withHeaders(frame, 'Mcp-Method missing', 'error', { 'mcp-method': undefined }),
  (frame) =>
    withHeaders(frame, 'protocol version header mismatch', 'error', {
      'mcp-protocol-version': '2025-11-25',
    }),
  (frame, rng) =>
    withHeaders(frame, 'bad content type', 'anonymous', {
      'content-type': rng.pick([
        'text/plain',
        'application/json; charset=latin1',
        'multipart/form-data',
        undefined,
      ]),
    }),
  (frame, rng) =>
    withHeaders(frame, 'bad accept', 'anonymous', {
      accept: rng.pick(['application/json', 'text/html', undefined]),
    }),
];

function withHeaders(
  frame: Frame,
  kind: string,
  expect: Expect,
  changes: Record<string, string | undefined>,
): Frame {
  const headers = { ...frame.headers };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return { ...frame, kind, expect, id: expect === 'error' ? frame.id : undefined, headers };
}

/** A request as large as the limit allows plus one byte, its id first so it is readable. */
function oversized(id: RequestId, limits: FrameLimits, transport: FuzzTransport): Frame {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"echo","arguments":{"text":"`;
  const tail = '"}}}';
  const fill = limits.maxMessageBytes + 1 - head.length - tail.length;
  const body = encoder.encode(`${head}${'x'.repeat(fill)}${tail}`);
  // Over stdio the framer reads the id from the first bytes, so the error can name it; over
  // HTTP the body is refused (413) before it is read.
  return transport === 'stdio'
    ? { kind: 'oversized frame', body, id, expect: 'error', headers: {} }
    : { kind: 'oversized body', body, expect: 'anonymous', headers: { ...BASE_HEADERS } };
}

/** `count` frames for `transport` from `rng`: about half valid, the rest hostile. */
export function* generateFrames(
  rng: Prng,
  count: number,
  transport: FuzzTransport,
  limits: FrameLimits,
): Generator<Frame> {
  // Oversized frames go at seeded positions, not by chance, so each run sends its quota.
  const oversizedAt = new Set(
    Array.from({ length: limits.oversized }, () => rng.int(0, count - 1)),
  );
  for (let n = 0; n < count; n++) {
    const id = requestId(rng, n);
    if (oversizedAt.has(n)) {
      yield oversized(id, limits, transport);
    } else if (rng.chance(0.45)) {
      yield rng.pick(VALID)(rng, id, transport);
    } else if (transport === 'http' && rng.chance(0.3)) {
      yield rng.pick(HEADERS)(rng.pick(VALID.slice(0, 6))(rng, id, transport), rng);
    } else {
      yield rng.pick(ENVELOPE)(rng, id, transport);
    }
  }
}

/** The first bytes of a frame as readable text, for a defect report. */
export function preview(frame: Frame, chars = 160): string {
  const text = new TextDecoder().decode(frame.body.subarray(0, chars * 4)).slice(0, chars);
  const more = frame.body.length > chars ? ` … (${frame.body.length} bytes)` : '';
  return `${JSON.stringify(text)}${more}`;
}
