/** How a method is described once and turned into the schemas of one revision. */
import { z } from 'zod';
import type { WireFeatures } from './features';
import { cacheHints, notificationParams, requestParams, result } from './messages';
import { MetaObject } from './primitives';
import { CreateTaskResult, taskParamField } from './tasks';
import type { MethodOf, Sender } from './wire-types';

/** One method's zod schemas in one revision. */
export type ZodMethod = MethodOf<z.ZodType>;

export type Shape = Record<string, z.ZodType>;

/** A request as written once; `buildRequest` turns it into one revision's schemas. */
export interface RequestSpec {
  readonly method: string;
  readonly definition: string;
  readonly sender?: Sender;
  /** Param fields, or a ready params schema (e.g. the elicitation form/URL union). */
  readonly params?: Shape | z.ZodType;
  /** Legacy params may be omitted entirely (list methods, ping). */
  readonly optionalParams?: boolean;
  /** Result fields, or a ready result schema. */
  readonly result: Shape | z.ZodType;
  readonly resultDefinition: string;
  readonly cacheable?: boolean;
  readonly inputRequired?: boolean;
  /** 2025-11-25: the request may be task-augmented and answer with a CreateTaskResult. */
  readonly taskAugmented?: boolean;
}

export interface NotificationSpec {
  readonly method: string;
  readonly definition: string;
  readonly sender: Sender;
  readonly params?: Shape;
  readonly optionalParams?: boolean;
}

/** Extra pieces a modern revision adds to MRTR-capable requests. */
export interface MrtrPieces {
  readonly params: Shape;
  readonly InputRequiredResult: z.ZodType;
}

export function buildRequest(f: WireFeatures, spec: RequestSpec, mrtr?: MrtrPieces): ZodMethod {
  const cacheable = f.modern && (spec.cacheable ?? false);
  const inputRequired = mrtr !== undefined && (spec.inputRequired ?? false);
  const tasks = f.tasks && (spec.taskAugmented ?? false);
  let params: z.ZodType;
  if (spec.params instanceof z.ZodType) {
    params = spec.params;
  } else {
    const shape = {
      ...spec.params,
      ...(inputRequired ? mrtr.params : {}),
      ...(tasks ? taskParamField : {}),
    };
    params = requestParams(f, shape, spec.optionalParams ?? false);
  }
  const completeResult =
    spec.result instanceof z.ZodType
      ? spec.result
      : result(f, cacheable ? { ...spec.result, ...cacheHints } : spec.result);
  let res = completeResult;
  if (inputRequired) res = z.union([res, mrtr.InputRequiredResult]);
  if (tasks) res = z.union([res, CreateTaskResult]);
  return {
    method: spec.method,
    kind: 'request',
    sender: spec.sender ?? 'client',
    definition: spec.definition,
    params,
    result: res,
    resultDefinition: spec.resultDefinition,
    completeResult,
    cacheable,
    inputRequired,
  };
}

export function buildNotification(f: WireFeatures, spec: NotificationSpec): ZodMethod {
  return {
    method: spec.method,
    kind: 'notification',
    sender: spec.sender,
    definition: spec.definition,
    params: notificationParams(f, spec.params ?? {}, spec.optionalParams ?? false),
    cacheable: false,
    inputRequired: false,
  };
}

/** Params of an embedded (modern) input request: no envelope, no required `_meta`. */
export function embeddedParams(spec: RequestSpec): z.ZodType {
  if (spec.params instanceof z.ZodType) return spec.params;
  const params = z.looseObject({ ...spec.params, _meta: MetaObject.optional() });
  return spec.optionalParams ? params.optional() : params;
}

/** The bare client result of an input request (no `resultType`). */
export function bareResult(spec: RequestSpec): z.ZodType {
  return spec.result instanceof z.ZodType
    ? spec.result
    : z.looseObject({ ...spec.result, _meta: MetaObject.optional() });
}

/** A modern input request: described like a method, but never sent as a JSON-RPC request. */
export function buildInputRequest(spec: RequestSpec): ZodMethod {
  return {
    method: spec.method,
    kind: 'request',
    sender: 'server',
    definition: spec.definition,
    params: embeddedParams(spec),
    result: bareResult(spec),
    resultDefinition: spec.resultDefinition,
    completeResult: bareResult(spec),
    cacheable: false,
    inputRequired: false,
  };
}
