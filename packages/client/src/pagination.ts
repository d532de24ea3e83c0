/**
 * Walking a paginated list to its end, with guards against servers that never stop.
 */
import { LocalError, LocalErrorCode } from '@twofold/protocol/experimental';

/**
 * Yields the items of every page: the first page is fetched without a cursor, each next one
 * with the previous page's `nextCursor`, until a page has none. A cursor the server already
 * gave fails with `INVALID_RESULT` ("server repeated cursor"); needing more than `maxPages`
 * pages fails with `LIMIT_EXCEEDED`. Pages are fetched lazily, as the caller iterates.
 */
export async function* iteratePages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
  maxPages: number,
): AsyncGenerator<T> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= maxPages) {
      throw new LocalError(LocalErrorCode.LimitExceeded, `list has more than ${maxPages} pages`, {
        details: { maxPages },
      });
    }
    const page = await fetchPage(cursor);
    yield* page.items;
    if (page.nextCursor === undefined) return;
    if (seen.has(page.nextCursor)) {
      throw new LocalError(LocalErrorCode.InvalidResult, 'server repeated cursor', {
        details: { cursor: page.nextCursor },
      });
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}
