/**
 * `list-order` (two full listings give the same order) and `pagination` (cursors lead to the end
 * without repeating, and a cursor the server never issued is refused with -32602).
 */
import { ErrorCode } from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import { SPEC } from '../spec-refs';
import {
  advertisedLists,
  fetchPage,
  firstPass,
  itemKey,
  type ListMethod,
  listAll,
  MAX_PAGES,
} from '../survey';
import { listOf } from '../util';
import { type CheckDefinition, Findings, notConnected, skip } from './define';

/** A cursor no server hands out: opaque to us, but surely not one of its own. */
export const FOREIGN_CURSOR = 'twofold-doctor-invalid-cursor';

async function listsOrSkip(context: DoctorContext): Promise<ListMethod[] | string> {
  if (!context.client) return notConnected(context).details[0] ?? '';
  const lists = await advertisedLists(context);
  return lists.length > 0 ? lists : 'the server advertises no tools, prompts or resources';
}

export const listOrder: CheckDefinition = {
  id: 'list-order',
  title: 'Deterministic list order',
  spec: SPEC.toolsOrder,
  async run(context) {
    const lists = await listsOrSkip(context);
    if (typeof lists === 'string') return skip(lists);
    const findings = new Findings();
    for (const method of lists) {
      const first = await firstPass(context, method);
      const second = await listAll(context, method);
      const stopped = first.stopped ?? second.stopped;
      if (stopped) {
        findings.warn(`${method}: not compared, the listing stopped (${stopped})`);
        continue;
      }
      const a = first.items.map(itemKey);
      const b = second.items.map(itemKey);
      if (a.join('\n') === b.join('\n')) {
        findings.note(`${method}: ${a.length} item(s), same order both times`);
        continue;
      }
      const sameSet =
        a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
      const index = a.findIndex((key, i) => key !== b[i]);
      findings.warn(
        sameSet
          ? `${method}: same ${a.length} item(s) in a different order (first difference at #${index + 1}: ${JSON.stringify(a[index])} then ${JSON.stringify(b[index])}); servers SHOULD list in a deterministic order`
          : `${method}: the two listings differ (${a.length} then ${b.length} item(s)); the list changed between calls, or depends on the call`,
      );
    }
    if (context.era === 'legacy') {
      findings.note(
        'deterministic order is a 2026-07-28 recommendation; legacy revisions do not ask for it',
      );
    }
    return findings.outcome();
  },
};

export const pagination: CheckDefinition = {
  id: 'pagination',
  title: 'Pagination',
  spec: SPEC.pagination,
  async run(context) {
    const lists = await listsOrSkip(context);
    if (typeof lists === 'string') return skip(lists);
    const spec = context.era === 'legacy' ? SPEC.legacyPagination : SPEC.pagination;
    const findings = new Findings();
    for (const method of lists) {
      const pass = await firstPass(context, method);
      const pages = pass.pages.length;
      if (pass.repeatedCursor !== undefined) {
        findings.fail(
          `${method}: after ${pages} page(s), ${pass.stopped}; a client following it would loop`,
        );
      } else if (pass.pageCapHit) {
        findings.warn(
          `${method}: ${pass.stopped} (${pass.items.length} items so far); stopped there`,
        );
      } else if (pass.stopped) {
        findings.fail(`${method}: ${pass.stopped}`);
      } else {
        findings.note(
          `${method}: ${pass.items.length} item(s) in ${pages} page(s)${pages === 1 ? ' (no nextCursor: one page)' : ''}`,
        );
      }
      const keys = pass.items.map(itemKey);
      const duplicates = [...new Set(keys.filter((key, i) => keys.indexOf(key) !== i))];
      if (duplicates.length > 0) {
        findings.warn(`${method}: item(s) listed more than once: ${listOf(duplicates)}`);
      }
      await checkForeignCursor(context, method, findings);
    }
    findings.note(`cursors followed up to ${MAX_PAGES} pages per list`);
    return findings.outcome(spec);
  },
};

async function checkForeignCursor(
  context: DoctorContext,
  method: ListMethod,
  findings: Findings,
): Promise<void> {
  const page = await fetchPage(context, method, FOREIGN_CURSOR);
  const sent = `${method} with cursor ${JSON.stringify(FOREIGN_CURSOR)}`;
  if (page.ok) {
    findings.warn(`${sent} was answered with a result; an invalid cursor SHOULD get -32602`);
  } else if (page.code === ErrorCode.InvalidParams) {
    findings.note(`${sent} → -32602, as it should`);
  } else if (page.code !== undefined) {
    findings.warn(
      `${sent} → error ${page.code} (${page.message}); an invalid cursor SHOULD get -32602`,
    );
  } else {
    findings.fail(`${sent} got no answer: ${page.message}`);
  }
}
