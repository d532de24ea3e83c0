/**
 * The fuzz over Streamable HTTP: twofold's benchmark server as a child process listening on
 * 127.0.0.1, sent each frame as one POST (with its headers) by a few concurrent workers. Every
 * POST gets its own answer, so each frame is judged on its own response.
 */
import { connect } from 'node:net';
import type { RequestId } from '@twofold/protocol/experimental';
import { Pool } from 'undici';
import { within } from '../bounded';
import { HttpServerProcess } from '../http-servers';
import { TWOFOLD } from '../impls';
import { settledUsage, type Usage } from '../process-usage';
import { type Frame, generateFrames, preview } from './frames';
import type { Prng } from './prng';
import type { FuzzRun } from './stdio-fuzz';
import { Tally, type Verdict } from './tally';

/** The server's default largest body (4 MiB): a few frames a run go past it. */
const HTTP_MAX_BODY_BYTES = 4 * 1024 * 1024;
const WORKERS = 8;
const REQUEST_TIMEOUT_MS = 15_000;

interface ResponseMessage {
  id?: RequestId | null;
  error?: unknown;
}

/** The JSON-RPC messages of a response body: one JSON value, or the events of an SSE stream. */
function messagesOf(contentType: string, body: string): ResponseMessage[] {
  if (body.trim() === '') return [];
  if (!contentType.includes('text/event-stream')) return [JSON.parse(body) as ResponseMessage];
  const messages: ResponseMessage[] = [];
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data !== '') messages.push(JSON.parse(data) as ResponseMessage);
  }
  return messages;
}

/** The verdict on one frame from its HTTP status and the messages of its body. */
function judge(frame: Frame, status: number, messages: ResponseMessage[]): [Verdict, string] {
  const actual = `HTTP ${status}, ${messages.length} message(s)${messages.length ? `: ${JSON.stringify(messages[0]).slice(0, 160)}` : ''}`;
  const withId = messages.filter((m) => m.id !== undefined && m.id !== null);
  switch (frame.expect) {
    case 'none':
      return status === 202 && messages.length === 0 ? ['ok', actual] : ['wrong', actual];
    case 'anonymous':
      return status >= 400 && status < 500 && withId.length === 0
        ? ['ok', actual]
        : ['wrong', actual];
    default: {
      const mine = withId.filter((m) => m.id === frame.id);
      if (mine.length === 0) return [messages.length === 0 ? 'missing' : 'wrong', actual];
      if (mine.length > 1) return ['duplicate', actual];
      if (withId.length > 1) return ['wrong', actual];
      if (frame.expect === 'error' && !('error' in (mine[0] as ResponseMessage)))
        return ['wrong', actual];
      return ['ok', actual];
    }
  }
}

interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * An oversized POST: only its head, which declares the length, so the refusal the server must
 * send before reading the body is read back whole (writing the body into a connection the
 * server is closing would end in a reset that can swallow the answer).
 */
function postHeadOnly(url: URL, frame: Frame): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy(new Error('no response in time')));
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('connection closed without a whole response')));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = text.slice(0, end);
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (received.length < end + 4 + length) return;
      socket.destroy();
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        contentType: /\r\ncontent-type:\s*([^\r]*)/i.exec(head)?.[1] ?? '',
        body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
    });
    const headers = {
      ...frame.headers,
      host: url.host,
      'content-length': String(frame.body.length),
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  });
}

async function postFrame(pool: Pool, url: URL, frame: Frame): Promise<HttpAnswer> {
  if (frame.body.length > HTTP_MAX_BODY_BYTES) return postHeadOnly(url, frame);
  const response = await pool.request({
    method: 'POST',
    path: url.pathname,
    headers: frame.headers,
    body: frame.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = await response.body.text();
  const contentType = String(response.headers['content-type'] ?? '');
  return { status: response.statusCode, contentType, body };
}

async function post(pool: Pool, url: URL, frame: Frame): Promise<[Verdict, string]> {
  try {
    const { status, contentType, body } = await postFrame(pool, url, frame);
    let messages: ResponseMessage[];
    try {
      messages = messagesOf(contentType, body);
    } catch {
      return ['wrong', `HTTP ${status} with a body that is not JSON: ${body.slice(0, 160)}`];
    }
    return judge(frame, status, messages);
  } catch (error) {
    return ['missing', `no response: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** Sends `count` frames from `rng` to a fresh HTTP server and checks every answer. */
export async function fuzzHttp(rng: Prng, count: number, oversized: boolean): Promise<FuzzRun> {
  const server = await HttpServerProcess.start(TWOFOLD, 2, 'modern');
  const url = new URL(server.url);
  const pool = new Pool(url.origin, { connections: WORKERS });
  const tally = new Tally('HTTP');
  const usage = async () =>
    (await within(server.usage(true), 30_000, 'HTTP server usage')) as Usage;
  try {
    const before = await usage();
    const frames = generateFrames(rng, count, 'http', {
      maxMessageBytes: HTTP_MAX_BODY_BYTES,
      oversized: oversized ? 3 : 0,
    });
    const worker = async () => {
      for (let next = frames.next(); !next.done && server.running; next = frames.next()) {
        const frame = next.value;
        const [verdict, actual] = await post(pool, url, frame);
        tally.record(frame.kind, verdict, {
          frame: preview(frame),
          expected: frame.expect,
          actual,
        });
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    // The fuzz's own connections are closed first, so they do not count in the fds after.
    await pool.close();
    const crashed = server.exit;
    const after = crashed ? undefined : await settledUsage(usage, before).catch(() => undefined);
    return { tally, crashed: crashed && `server ${crashed}`, before, after };
  } finally {
    if (!pool.closed) await pool.close();
    await server.close();
  }
}
