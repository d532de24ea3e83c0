/**
 * Folding `allOf` intersections for hosts that do not take them, shared by the profiles.
 */
import { isRecord } from '@twofold/protocol/experimental';
import type { Report } from './reports';

/** Keywords an object-only `allOf` branch may hold to be merged into its parent exactly. */
const MERGEABLE = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'title',
  'description',
]);

/**
 * Folds an `allOf` of plain object schemas into `node` (properties and `required` united);
 * `undefined` when a branch holds anything else.
 */
export function mergeObjectAllOf(
  node: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const branches = node.allOf;
  if (!Array.isArray(branches)) return undefined;
  const { allOf: _allOf, ...merged } = node;
  const properties: Record<string, unknown> = isRecord(merged.properties)
    ? { ...merged.properties }
    : {};
  const required = new Set<string>(Array.isArray(merged.required) ? merged.required : []);
  for (const branch of branches) {
    if (!isRecord(branch)) return undefined;
    if (Object.keys(branch).some((keyword) => !MERGEABLE.has(keyword))) return undefined;
    if (branch.type !== undefined && branch.type !== 'object') return undefined;
    // Sibling branches that close themselves would reject each other's properties.
    if (branch.additionalProperties !== undefined && branch.additionalProperties !== false) {
      return undefined;
    }
    for (const [name, value] of Object.entries(
      isRecord(branch.properties) ? branch.properties : {},
    )) {
      if (Object.hasOwn(properties, name)) return undefined;
      properties[name] = value;
    }
    for (const name of Array.isArray(branch.required) ? branch.required : []) required.add(name);
  }
  return {
    ...merged,
    type: 'object',
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
  };
}

/** Applies an `allOf` merge to `node`, or removes the `allOf`; either way it is reported. */
export function foldAllOf(
  node: Record<string, unknown>,
  path: string,
  report: Report,
): Record<string, unknown> {
  if (node.allOf === undefined) return node;
  const merged = mergeObjectAllOf(node);
  if (merged !== undefined) {
    report({
      path,
      keyword: 'allOf',
      action: 'rewritten',
      detail: 'object branches merged into one object',
    });
    return merged;
  }
  const { allOf: _allOf, ...rest } = node;
  report({
    path,
    keyword: 'allOf',
    action: 'removed',
    detail: 'an intersection the host cannot express; its constraints are no longer described',
  });
  return rest;
}
