/**
 * What converting and normalising a schema report: losses of a conversion and rewrites of a
 * normalisation. Below every converter and normaliser, so all of them can use these types.
 */

/**
 * Something the original schema enforces or describes that its JSON Schema does not: a zod
 * refine, transform or pipe, or a type with no JSON form (dates, bigints, maps…).
 *
 * @experimental
 */
export interface SchemaLoss {
  /** JSON Pointer into the produced JSON Schema (`""` is the root). */
  readonly path: string;
  readonly what: string;
}

/**
 * One rewrite made by `normalizeSchema`.
 *
 * @experimental
 */
export interface SchemaChange {
  /** JSON Pointer of the changed schema in the normalised copy (`""` is the root). */
  readonly path: string;
  readonly keyword: string;
  readonly action: 'removed' | 'inlined' | 'rewritten' | 'added';
  readonly detail: string;
}

/** Collects the changes of one normalisation. */
export type Report = (change: SchemaChange) => void;
