/**
 * The book of a stream fuzz (stdio): what each frame sent must get back, and what came back.
 * Responses are matched to frames by id; errors without an id in the order they arrive, to the
 * frames that expect one in the order they were sent.
 */
import type { RequestId } from '@twofold/protocol/experimental';
import { type Expect, type Frame, preview } from './frames';
import type { Tally } from './tally';

interface Expected {
  kind: string;
  expect: Expect;
  /** The frame's first bytes (the frame itself may be 64 MiB). */
  frame: string;
}

interface Received {
  count: number;
  errors: number;
}

interface ResponseMessage {
  id?: RequestId | null;
  error?: unknown;
  result?: unknown;
  method?: unknown;
}

const idKey = (id: RequestId) => `${typeof id}:${String(id)}`;
const short = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…` : text);

export class ResponseBook {
  private readonly byId = new Map<string, Expected>();
  private readonly answers = new Map<string, Received>();
  private readonly anonymousExpected: Expected[] = [];
  private readonly anonymousReceived: string[] = [];
  private readonly strays: string[] = [];
  private readonly controls = new Map<string, (message: ResponseMessage) => void>();
  private outstanding = 0;
  private onProgress: (() => void) | undefined;

  /** Notes what `frame` must get back. */
  expect(frame: Frame): void {
    const entry = { kind: frame.kind, expect: frame.expect, frame: preview(frame) };
    if (frame.expect === 'anonymous') this.anonymousExpected.push(entry);
    else if (frame.id !== undefined) {
      this.byId.set(idKey(frame.id), entry);
      if (frame.expect !== 'none') this.outstanding++;
    }
  }

  /** A response to one of the harness's own requests (ids that no frame uses). */
  control(id: string): Promise<unknown> {
    return new Promise((resolve) => this.controls.set(idKey(id), resolve));
  }

  /** One line of the server's output. */
  receive(line: string): void {
    let message: ResponseMessage;
    try {
      message = JSON.parse(line) as ResponseMessage;
    } catch {
      this.strays.push(`output that is not JSON: ${short(line)}`);
      return;
    }
    if (message.method !== undefined) return; // a notification of the server's own
    if (message.id === undefined || message.id === null) {
      this.anonymousReceived.push(short(line));
    } else {
      const key = idKey(message.id);
      const control = this.controls.get(key);
      if (control) {
        this.controls.delete(key);
        control(message);
        return;
      }
      const expected = this.byId.get(key);
      if (!expected) this.strays.push(`an answer to an id never sent: ${short(line)}`);
      const received = this.answers.get(key) ?? { count: 0, errors: 0 };
      received.count++;
      if ('error' in message) received.errors++;
      this.answers.set(key, received);
      if (received.count === 1 && expected && expected.expect !== 'none') this.outstanding--;
    }
    this.onProgress?.();
  }

  private done(): boolean {
    return this.outstanding <= 0 && this.anonymousReceived.length >= this.anonymousExpected.length;
  }

  /** Resolves once everything expected came, or once the server was quiet for `quietMs`. */
  settled(quietMs: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        this.onProgress = undefined;
        resolve();
      };
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(finish, quietMs);
      };
      this.onProgress = () => (this.done() ? finish() : arm());
      if (this.done()) finish();
      else arm();
    });
  }

  /** Records every frame's verdict in `tally`. */
  judge(tally: Tally): void {
    for (const [key, expected] of this.byId) {
      const received = this.answers.get(key) ?? { count: 0, errors: 0 };
      const detail = (actual: string) => ({
        frame: expected.frame,
        expected: expected.expect,
        actual,
      });
      if (expected.expect === 'none') {
        if (received.count === 0) tally.record(expected.kind, 'ok');
        else tally.record(expected.kind, 'wrong', detail(`${received.count} response(s)`));
      } else if (received.count === 0) {
        tally.record(expected.kind, 'missing', detail('no response'));
      } else if (received.count > 1) {
        tally.record(expected.kind, 'duplicate', detail(`${received.count} responses`));
      } else if (expected.expect === 'error' && received.errors === 0) {
        tally.record(expected.kind, 'wrong', detail('a result, not an error'));
      } else tally.record(expected.kind, 'ok');
    }
    const got = this.anonymousReceived.length;
    this.anonymousExpected.forEach((expected, i) => {
      if (i < got) tally.record(expected.kind, 'ok');
      else
        tally.record(expected.kind, 'missing', {
          frame: expected.frame,
          expected: 'anonymous',
          actual: 'no error without an id (matched in order)',
        });
    });
    for (const extra of this.anonymousReceived.slice(this.anonymousExpected.length)) {
      tally.record('error without an id beyond those expected', 'wrong', {
        frame: '(unknown: matched in order)',
        expected: 'none',
        actual: extra,
      });
    }
    for (const stray of this.strays) {
      tally.record('unexpected server output', 'wrong', {
        frame: '–',
        expected: 'none',
        actual: stray,
      });
    }
  }
}
