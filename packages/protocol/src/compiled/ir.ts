/**
 * The wire's validators as plain data: what `scripts/wire-to-ir.ts` reads off the zod schemas at build
 * time and `build.ts` turns back into functions at run time, so a program that speaks MCP never
 * loads zod. Nodes refer to each other by index into `WireIr.nodes`.
 */

/** A refinement after the type check, in zod's order. */
export type IrCheck =
  /** A safe integer. */
  | readonly ['int']
  /** `>= value` (inclusive) or `> value`. */
  | readonly ['min', number, boolean]
  /** `<= value` (inclusive) or `< value`. */
  | readonly ['max', number, boolean]
  | readonly ['minLength', number]
  | readonly ['maxLength', number]
  /** Pattern source and flags. */
  | readonly ['regex', string, string];

/** One object key: name, node, and whether it may be absent (zod's `optin`/`optout`). */
export type IrField = readonly [key: string, node: number, optionalIn: 0 | 1, optionalOut: 0 | 1];

export type IrLiteral = string | number | boolean | null;

export type IrNode =
  | readonly ['string', readonly IrCheck[]]
  | readonly ['number', readonly IrCheck[]]
  | readonly ['boolean']
  | readonly ['unknown']
  | readonly ['literal', readonly IrLiteral[]]
  | readonly ['enum', readonly IrLiteral[]]
  /** Unknown keys: kept (`loose`) or an issue (`strict`). */
  | readonly ['object', 'loose' | 'strict', readonly IrField[]]
  | readonly ['array', number, readonly IrCheck[]]
  /** String keys, every value checked by the node. */
  | readonly ['record', number]
  | readonly ['union', readonly number[]]
  /** Discriminator key, options, and which option each discriminator value selects. */
  | readonly ['dunion', string, readonly number[], readonly (readonly [IrLiteral, number])[]]
  | readonly ['and', number, number]
  | readonly ['optional', number]
  | readonly ['nullable', number]
  /** Any plain object (not an array, not null), with the message of a failure. */
  | readonly ['plainObject', string];

/** One method of a revision, as `MethodSchema` describes it, its schemas as node indices. */
export interface IrMethod {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly sender: 'client' | 'server' | 'both';
  readonly definition: string;
  readonly params: number;
  readonly result?: number;
  readonly resultDefinition?: string;
  readonly completeResult?: number;
  readonly cacheable: boolean;
  readonly inputRequired: boolean;
}

export interface IrRevision {
  readonly methods: readonly IrMethod[];
  readonly inputRequests: readonly IrMethod[];
  readonly definitions: Readonly<Record<string, number>>;
}

/** Everything the run time validates, shared nodes stored once. */
export interface WireIr {
  readonly nodes: readonly IrNode[];
  readonly revisions: Readonly<Record<string, IrRevision>>;
  /** Named schemas outside a revision's table: the tasks and skills extensions. */
  readonly named: Readonly<Record<'tasks' | 'skills', Readonly<Record<string, number>>>>;
}
