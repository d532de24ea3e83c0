import { LocalError } from '@twofold/protocol/experimental';
import { describe, expect, it } from 'vitest';
import { iteratePages } from '../src/pagination';

async function collect<T>(pages: AsyncGenerator<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) items.push(item);
  return items;
}

function server(pages: Record<string, { items: number[]; nextCursor?: string }>) {
  const asked: (string | undefined)[] = [];
  const fetchPage = async (cursor: string | undefined) => {
    asked.push(cursor);
    const page = pages[cursor ?? ''];
    if (!page) throw new Error(`unknown cursor ${cursor}`);
    return page;
  };
  return { asked, fetchPage };
}

describe('iteratePages', () => {
  it('walks every page in order, passing each nextCursor', async () => {
    const { asked, fetchPage } = server({
      '': { items: [1, 2], nextCursor: 'c1' },
      c1: { items: [], nextCursor: 'c2' },
      c2: { items: [3] },
    });
    expect(await collect(iteratePages(fetchPage, 10))).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, 'c1', 'c2']);
  });

  it('fetches lazily: stopping early asks for no more pages', async () => {
    const { asked, fetchPage } = server({
      '': { items: [1, 2], nextCursor: 'c1' },
      c1: { items: [3] },
    });
    for await (const item of iteratePages(fetchPage, 10)) {
      expect(item).toBe(1);
      break;
    }
    expect(asked).toEqual([undefined]);
  });

  it('fails with INVALID_RESULT when the server repeats a cursor', async () => {
    const { asked, fetchPage } = server({
      '': { items: [1], nextCursor: 'a' },
      a: { items: [2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'a' },
    });
    const seen: number[] = [];
    const error = await (async () => {
      for await (const item of iteratePages(fetchPage, 100)) seen.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'INVALID_RESULT', message: 'server repeated cursor' });
    expect(seen).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, 'a', 'b']);
  });

  it('fails with LIMIT_EXCEEDED past maxPages', async () => {
    let n = 0;
    const endless = async () => ({ items: [n], nextCursor: `c${++n}` });
    const error = await collect(iteratePages(endless, 3)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { maxPages: 3 } });
    expect(n).toBe(3);
  });

  it('allows exactly maxPages pages', async () => {
    const { fetchPage } = server({ '': { items: [1], nextCursor: 'x' }, x: { items: [2] } });
    expect(await collect(iteratePages(fetchPage, 2))).toEqual([1, 2]);
  });
});
