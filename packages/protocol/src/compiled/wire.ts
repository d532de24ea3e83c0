/** A revision's wire as the packages use it: the method table with compiled validators. */
import type { ProtocolVersion } from '../versions';
import { FEATURES_BY_VERSION, type WireFeatures } from '../wire/features';
import type { IrMethod } from './ir';
import { lazyValidators, type Validator, validatorAt, WIRE_IR } from './validator';

/**
 * Who sends a method: the client, the server, or either side.
 *
 * @experimental
 */
export type Sender = 'client' | 'server' | 'both';

/**
 * Schemas of one method in one revision.
 *
 * @experimental
 */
export interface MethodSchema {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly sender: Sender;
  /** Name of the spec definition of the whole message, e.g. `CallToolRequest`. */
  readonly definition: string;
  /** The params schema (optional where the revision lets params be omitted). */
  readonly params: Validator;
  /** The result schema (requests only); for MRTR methods it includes `input_required`. */
  readonly result?: Validator;
  /** Name of the spec definition of the result, e.g. `CallToolResult`. */
  readonly resultDefinition?: string;
  /** The final (`complete`) result alone, without the MRTR or task alternatives. */
  readonly completeResult?: Validator;
  /** Modern results of this method must carry `ttlMs` / `cacheScope`. */
  readonly cacheable: boolean;
  /** The method may answer `resultType: "input_required"` (modern MRTR). */
  readonly inputRequired: boolean;
}

/**
 * The schemas of one protocol revision.
 *
 * @experimental
 */
export interface Wire {
  /** The revision's version string, e.g. `2026-07-28`. */
  readonly version: string;
  readonly era: 'modern' | 'legacy';
  readonly features: WireFeatures;
  /** Every JSON-RPC method of the revision, requests and notifications, by method name. */
  readonly methods: ReadonlyMap<string, MethodSchema>;
  /**
   * The MRTR input requests of a modern revision (`sampling/createMessage`,
   * `elicitation/create`, `roots/list`): not JSON-RPC methods there, but embedded in
   * `input_required` results. Empty for legacy revisions, where they are methods.
   */
  readonly inputRequests: ReadonlyMap<string, MethodSchema>;
  /** Validators by the name the revision's `schema.json` gives the definition. */
  readonly definitions: Readonly<Record<string, Validator>>;
}

function methodOf(m: IrMethod): MethodSchema {
  return {
    method: m.method,
    kind: m.kind,
    sender: m.sender,
    definition: m.definition,
    params: validatorAt(m.params),
    ...(m.result === undefined ? {} : { result: validatorAt(m.result) }),
    ...(m.resultDefinition === undefined ? {} : { resultDefinition: m.resultDefinition }),
    ...(m.completeResult === undefined ? {} : { completeResult: validatorAt(m.completeResult) }),
    cacheable: m.cacheable,
    inputRequired: m.inputRequired,
  };
}

/** The compiled wire of one supported revision. */
export function compiledWire(version: ProtocolVersion): Wire {
  const ir = WIRE_IR.revisions[version];
  const features = FEATURES_BY_VERSION[version];
  if (!ir || !features) throw new RangeError(`no compiled wire for ${version}`);
  return {
    version,
    era: features.modern ? 'modern' : 'legacy',
    features,
    methods: new Map(ir.methods.map((m) => [m.method, methodOf(m)])),
    inputRequests: new Map(ir.inputRequests.map((m) => [m.method, methodOf(m)])),
    definitions: lazyValidators(ir.definitions),
  };
}
