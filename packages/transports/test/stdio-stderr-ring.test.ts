import { describe, expect, it } from 'vitest';
import { DEFAULT_STDERR_TAIL_BYTES, StderrRing } from '../src/stdio/stderr-ring';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('StderrRing', () => {
  it('keeps the last 64 KiB by default', () => {
    expect(DEFAULT_STDERR_TAIL_BYTES).toBe(64 * 1024);
    const ring = new StderrRing();
    for (let i = 0; i < 100; i++)
      ring.push(utf8(`${String(i).padStart(4, '0')}${'-'.repeat(1019)}\n`));
    expect(ring.size).toBe(64 * 1024);
    expect(ring.text().endsWith(`0099${'-'.repeat(1019)}\n`)).toBe(true);
    expect(ring.text().startsWith(`0036${'-'.repeat(1019)}\n`)).toBe(true);
  });

  it('stays bounded and exact under many one-byte writes', () => {
    const ring = new StderrRing(10);
    const text = 'abcdefghijklmnopqrstuvwxyz'.repeat(40);
    for (const byte of utf8(text)) ring.push(new Uint8Array([byte]));
    expect(ring.size).toBe(10);
    expect(ring.text()).toBe(text.slice(-10));
  });

  it('keeps the tail of a chunk larger than the ring', () => {
    const ring = new StderrRing(4);
    ring.push(utf8('ab'));
    ring.push(utf8('0123456789'));
    expect(ring.text()).toBe('6789');
  });

  it('drops a character cut in half by the front edge instead of garbling it', () => {
    const ring = new StderrRing(5);
    ring.push(utf8('x日本')); // 1 + 3 + 3 bytes: the front edge falls inside 日
    expect(ring.text()).toBe('本');
  });

  it('copies what it keeps (callers may reuse their buffers)', () => {
    const ring = new StderrRing(8);
    const chunk = utf8('abc');
    ring.push(chunk);
    chunk.fill(0x7a);
    expect(ring.text()).toBe('abc');
  });
});
