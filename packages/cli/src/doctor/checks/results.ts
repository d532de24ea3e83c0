/**
 * `result-type` (every modern result says what it is) and `cache-hints` (cacheable modern
 * results carry `ttlMs` and `cacheScope`). Both look at the same raw results: the discover
 * result, every page of every advertised list, and one `resources/read`.
 */
import { CACHEABLE_METHODS, INPUT_REQUIRED_METHODS } from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import { SPEC } from '../spec-refs';
import { advertisedLists, firstPass, readFirstResource } from '../survey';
import { listOf } from '../util';
import { type CheckDefinition, Findings, notModern } from './define';

/** One raw result the doctor received. */
interface Observed {
  /** What it answered, e.g. `tools/list page 2`. */
  label: string;
  method: string;
  result: Record<string, unknown>;
}

async function observedResults(context: DoctorContext): Promise<Observed[]> {
  const observed: Observed[] = [];
  const discover = await context.discover();
  if (discover.ok) {
    observed.push({ label: 'server/discover', method: 'server/discover', result: discover.result });
  }
  for (const method of await advertisedLists(context)) {
    const pass = await firstPass(context, method);
    pass.pages.forEach((page, index) => {
      observed.push({ label: `${method} page ${index + 1}`, method, result: page.result });
    });
  }
  const read = await readFirstResource(context);
  if (read?.outcome.ok) {
    observed.push({
      label: `resources/read ${read.uri}`,
      method: 'resources/read',
      result: read.outcome.result,
    });
  }
  return observed;
}

export const resultType: CheckDefinition = {
  id: 'result-type',
  title: 'resultType on modern results',
  spec: SPEC.resultType,
  async run(context) {
    const notApplicable = notModern(context);
    if (notApplicable) return notApplicable;
    const findings = new Findings();
    const observed = await observedResults(context);
    if (observed.length === 0) return findings.fail('no result came back to check').outcome();
    const complete: string[] = [];
    for (const { label, method, result } of observed) {
      const value = result.resultType;
      if (value === undefined) {
        findings.fail(`${label}: no resultType (every result MUST carry one)`);
      } else if (value === 'complete') {
        complete.push(label);
      } else if (value === 'input_required' && INPUT_REQUIRED_METHODS.has(method)) {
        findings.note(`${label}: resultType "input_required" (allowed for ${method})`);
      } else {
        findings.fail(
          `${label}: resultType ${JSON.stringify(value)} is not valid here (only "complete"${INPUT_REQUIRED_METHODS.has(method) ? ' or "input_required"' : ''})`,
        );
      }
    }
    if (complete.length > 0) {
      findings.note(
        `resultType "complete" on ${complete.length} result(s): ${listOf(complete, 6)}`,
      );
    }
    return findings.outcome();
  },
};

export const cacheHints: CheckDefinition = {
  id: 'cache-hints',
  title: 'Cache hints on cacheable results',
  spec: SPEC.caching,
  async run(context) {
    const notApplicable = notModern(context);
    if (notApplicable) return notApplicable;
    const findings = new Findings();
    const observed = (await observedResults(context)).filter(
      (o) => CACHEABLE_METHODS.has(o.method) && o.result.resultType !== 'input_required',
    );
    if (observed.length === 0)
      return findings.fail('no cacheable result came back to check').outcome();
    const scopes = new Map<string, Set<unknown>>();
    const summaries = new Map<string, string[]>();
    for (const { label, method, result } of observed) {
      const problems: string[] = [];
      const { ttlMs, cacheScope } = result;
      if (ttlMs === undefined) problems.push('no ttlMs');
      else if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 0) {
        problems.push(`ttlMs ${JSON.stringify(ttlMs)} is not an integer ≥ 0`);
      }
      if (cacheScope === undefined) problems.push('no cacheScope');
      else if (cacheScope !== 'public' && cacheScope !== 'private') {
        problems.push(`cacheScope ${JSON.stringify(cacheScope)} is neither "public" nor "private"`);
      }
      if (problems.length > 0)
        findings.fail(`${label}: ${problems.join(', ')} (MUST on cacheable results)`);
      const seen = scopes.get(method) ?? new Set();
      seen.add(cacheScope);
      scopes.set(method, seen);
      const summary = summaries.get(method) ?? [];
      summary.push(`${String(ttlMs)}/${String(cacheScope)}`);
      summaries.set(method, summary);
    }
    for (const [method, summary] of summaries) {
      const distinct = [...new Set(summary)];
      findings.note(
        `${method}: ttlMs/cacheScope ${listOf(distinct, 4)}${summary.length > 1 ? ` over ${summary.length} results` : ''}`,
      );
    }
    for (const [method, seen] of scopes) {
      if (seen.size > 1 && method.endsWith('/list')) {
        findings.fail(
          `${method}: pages disagree on cacheScope (${listOf([...seen].map(String))}); every page of a list MUST share one`,
        );
      }
    }
    return findings.outcome();
  },
};
