/** A revision's wire as the packages use it: the method table with compiled validators. */
import type { ProtocolVersion } from '../versions';
import { FEATURES_BY_VERSION } from '../wire/features';
import type { MethodOf, WireOf } from '../wire/wire-types';
import type { IrMethod } from './ir';
import { type Validator, validatorAt, validatorsByName, WIRE_IR } from './validator';

/**
 * Schemas of one method in one revision.
 *
 * @experimental
 */
export type MethodSchema = MethodOf<Validator>;

/**
 * The schemas of one protocol revision.
 *
 * @experimental
 */
export type Wire = WireOf<Validator>;

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
    definitions: validatorsByName(ir.definitions),
  };
}
