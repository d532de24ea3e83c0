/**
 * Inlining local `$ref`s, for hosts that do not follow references. Recursive references are
 * expanded to a bounded depth and then cut (the cut accepts any value), and the whole expansion
 * has a budget so a schema of many recursive references cannot explode.
 */
import { isRecord } from '@twofold/protocol/experimental';
import { mapChildren, resolveLocalRef, type SchemaNode } from './pointer';
import type { SchemaChange } from './reports';

// Inlined references per schema at most; beyond it every further `$ref` is cut.
const INLINE_BUDGET = 2000;

/** Removes the keywords that only matter at a schema resource's root. */
function asSubschema(target: Record<string, unknown>): Record<string, unknown> {
  const { $defs: _defs, definitions: _definitions, $schema: _schema, $id: _id, ...rest } = target;
  return rest;
}

/**
 * A copy of `root` with every local `$ref` replaced by its target (siblings of the `$ref` win
 * over the target's keywords) and every `$defs`/`definitions` removed. A reference already
 * being expanded `maxDepth` times on the current path is cut and reported.
 */
export function inlineRefs(
  root: Record<string, unknown>,
  maxDepth: number,
  report: (change: SchemaChange) => void,
): Record<string, unknown> {
  let budget = INLINE_BUDGET;
  const visit = (node: SchemaNode, path: string, stack: readonly string[]): SchemaNode => {
    if (!isRecord(node)) return node;
    let current = node;
    for (const keyword of ['$defs', 'definitions'] as const) {
      if (current[keyword] === undefined) continue;
      const { [keyword]: _dropped, ...rest } = current;
      current = rest;
      report({ path, keyword, action: 'removed', detail: 'definitions are inlined where used' });
    }
    const ref = current.$ref;
    if (typeof ref !== 'string') {
      return mapChildren(current, path, (child, pointer) => visit(child, pointer, stack));
    }
    const { $ref: _ref, ...siblings } = current;
    const target = resolveLocalRef(root, ref);
    const depth = stack.filter((seen) => seen === ref).length;
    let cut: string | undefined;
    if (target === undefined) cut = `${ref} does not resolve inside the schema`;
    else if (depth >= maxDepth) cut = `recursive ${ref} cut after ${maxDepth} levels`;
    else if (budget <= 0) cut = `${ref} not inlined: the inlining budget is spent`;
    if (cut !== undefined || target === undefined) {
      report({
        path,
        keyword: '$ref',
        action: 'removed',
        detail: `${cut}; any value is accepted here`,
      });
      return visit(siblings, path, stack);
    }
    budget -= 1;
    report({ path, keyword: '$ref', action: 'inlined', detail: `${ref} inlined` });
    const base =
      typeof target === 'boolean' ? (target ? {} : { not: {} }) : asSubschema({ ...target });
    return visit({ ...base, ...siblings }, path, [...stack, ref]);
  };
  const inlined = visit(root, '', []);
  return isRecord(inlined) ? inlined : {};
}
