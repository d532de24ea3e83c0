/**
 * The listings several checks look at: each advertised list followed page by page. Modern
 * servers are listed over the raw channel, so the checks see results exactly as sent; legacy
 * servers through `McpClient` (which runs the handshake), with its cache bypassed.
 */
import { isRecord, ProtocolError } from '@twofold/protocol/experimental';
import { type DoctorContext, remember } from './context';
import { messageOf } from './util';

/** Pages followed at most per listing. */
export const MAX_PAGES = 50;

/** The list methods, with the result field that holds their items. */
export const LIST_METHODS = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
} as const;

/** A list method. */
export type ListMethod = keyof typeof LIST_METHODS;

/** One page of a listing. */
export interface PageRecord {
  /** The cursor the page was asked for (absent for the first). */
  cursor?: string;
  result: Record<string, unknown>;
}

/** One listing from the first page to the end (or to where it had to stop). */
export interface ListPass {
  method: ListMethod;
  pages: PageRecord[];
  items: unknown[];
  /** Why the listing stopped before the end, when it did. */
  stopped?: string;
  /** A `nextCursor` the server handed out twice in this listing. */
  repeatedCursor?: string;
  /** The listing was still going after `MAX_PAGES` pages. */
  pageCapHit?: boolean;
}

/** What one page request gave. */
export type PageOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; code?: number; message: string };

/** The lists the server's capabilities advertise, in a fixed order. */
export async function advertisedLists(context: DoctorContext): Promise<ListMethod[]> {
  const capabilities = await capabilitiesOf(context);
  if (!capabilities) return [];
  const lists: ListMethod[] = [];
  if (capabilities.tools !== undefined) lists.push('tools/list');
  if (capabilities.prompts !== undefined) lists.push('prompts/list');
  if (capabilities.resources !== undefined) {
    lists.push('resources/list', 'resources/templates/list');
  }
  return lists;
}

/** The server capabilities: from the raw discover result (modern) or the handshake (legacy). */
export async function capabilitiesOf(
  context: DoctorContext,
): Promise<Record<string, unknown> | undefined> {
  if (context.era === 'modern') {
    const discover = await context.discover();
    return discover.ok && isRecord(discover.result.capabilities)
      ? discover.result.capabilities
      : undefined;
  }
  return context.client?.serverCapabilities as Record<string, unknown> | undefined;
}

/** Asks for one page (`cursor` absent for the first). */
export async function fetchPage(
  context: DoctorContext,
  method: ListMethod,
  cursor: string | undefined,
): Promise<PageOutcome> {
  const params = cursor === undefined ? {} : { cursor };
  if (context.era === 'modern') {
    const exchange = await context.modernCall(method, params);
    const response = exchange.response;
    if (response && 'result' in response) return { ok: true, result: response.result };
    if (response) return { ok: false, code: response.error.code, message: response.error.message };
    return { ok: false, message: exchange.failure ?? 'no response' };
  }
  const client = context.client;
  if (!client) return { ok: false, message: 'not connected' };
  try {
    const result = await client.request(method, cursor === undefined ? undefined : params, {
      cache: 'bypass',
      timeoutMs: context.timeoutMs,
    });
    return { ok: true, result };
  } catch (error) {
    return error instanceof ProtocolError
      ? { ok: false, code: error.code, message: error.message }
      : { ok: false, message: messageOf(error) };
  }
}

/** Follows a list from its first page to the end, within `MAX_PAGES`. */
export async function listAll(context: DoctorContext, method: ListMethod): Promise<ListPass> {
  const pass: ListPass = { method, pages: [], items: [] };
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    if (pass.pages.length >= MAX_PAGES) {
      pass.pageCapHit = true;
      pass.stopped = `still paging after ${MAX_PAGES} pages`;
      return pass;
    }
    const page = await fetchPage(context, method, cursor);
    if (!page.ok) {
      const code = page.code === undefined ? '' : ` ${page.code}`;
      const where = cursor === undefined ? 'the first page' : `page ${pass.pages.length + 1}`;
      pass.stopped = `${method} failed on ${where}: error${code} ${page.message}`;
      return pass;
    }
    pass.pages.push(
      cursor === undefined ? { result: page.result } : { cursor, result: page.result },
    );
    const items = page.result[LIST_METHODS[method]];
    if (Array.isArray(items)) pass.items.push(...items);
    const next = page.result.nextCursor;
    if (next === undefined || next === null) return pass;
    if (typeof next !== 'string') {
      pass.stopped = `nextCursor is ${typeof next}, not a string`;
      return pass;
    }
    if (seen.has(next)) {
      pass.repeatedCursor = next;
      pass.stopped = `the server handed out cursor ${JSON.stringify(next)} twice`;
      return pass;
    }
    seen.add(next);
    cursor = next;
  }
}

/** The first full listing of `method`, shared by every check that needs it. */
export function firstPass(context: DoctorContext, method: ListMethod): Promise<ListPass> {
  return remember(context.memo, `list:${method}`, () => listAll(context, method));
}

/** The identity of a list item: its name, URI or URI template. */
export function itemKey(item: unknown): string {
  if (isRecord(item)) {
    for (const field of ['name', 'uri', 'uriTemplate']) {
      const value = item[field];
      if (typeof value === 'string') return value;
    }
  }
  return JSON.stringify(item);
}

/** The first listed resource read once (modern servers), shared by the result checks. */
export function readFirstResource(
  context: DoctorContext,
): Promise<{ uri: string; outcome: PageOutcome } | undefined> {
  return remember(context.memo, 'read', async () => {
    const lists = await advertisedLists(context);
    if (!lists.includes('resources/list')) return undefined;
    const pass = await firstPass(context, 'resources/list');
    const first = pass.items.find((item) => isRecord(item) && typeof item.uri === 'string');
    if (!isRecord(first)) return undefined;
    const uri = first.uri as string;
    const exchange = await context.modernCall('resources/read', { uri });
    const response = exchange.response;
    if (response && 'result' in response)
      return { uri, outcome: { ok: true, result: response.result } };
    const outcome: PageOutcome = response
      ? { ok: false, code: response.error.code, message: response.error.message }
      : { ok: false, message: exchange.failure ?? 'no response' };
    return { uri, outcome };
  });
}
