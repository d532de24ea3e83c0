/** Named definitions (as in each revision's `schema.json`) derived from the method table. */
import { z } from 'zod';
import { ClientCapabilities, ServerCapabilities } from './capabilities';
import * as content from './content';
import * as elicitation from './elicitation';
import * as entities from './entities';
import type { WireFeatures } from './features';
import * as msg from './messages';
import type { ZodMethod } from './method-spec';
import { ListenResultMetaObject, SubscriptionFilter } from './method-table';
import * as p from './primitives';
import * as sampling from './sampling';
import * as tasks from './tasks';

type Defs = Record<string, z.ZodType>;

/** Definitions that do not depend on the method table. */
export function sharedDefinitions(f: WireFeatures): Defs {
  const defs: Defs = {
    RequestId: p.RequestId,
    ProgressToken: p.ProgressToken,
    Cursor: p.Cursor,
    Role: p.Role,
    LoggingLevel: p.LoggingLevel,
    Implementation: p.Implementation,
    Annotations: p.Annotations,
    Error: p.ErrorObject,
    TextContent: content.TextContent,
    ImageContent: content.ImageContent,
    EmbeddedResource: content.EmbeddedResource,
    ResourceContents: content.ResourceContents,
    TextResourceContents: content.TextResourceContents,
    BlobResourceContents: content.BlobResourceContents,
    Resource: content.Resource,
    ResourceTemplate: entities.ResourceTemplate,
    Prompt: entities.Prompt,
    PromptArgument: content.PromptArgument,
    PromptReference: entities.PromptReference,
    Root: entities.Root,
    ModelHint: sampling.ModelHint,
    ModelPreferences: sampling.ModelPreferences,
    ClientCapabilities,
    ServerCapabilities,
  };
  if (f.richContent) {
    Object.assign(defs, {
      AudioContent: content.AudioContent,
      ResourceLink: content.ResourceLink,
      ResourceTemplateReference: entities.ResourceTemplateReference,
      ToolAnnotations: entities.ToolAnnotations,
      BaseMetadata: z.looseObject(p.baseMetadata),
    });
  } else {
    defs.ResourceReference = entities.ResourceTemplateReference;
  }
  if (f.elicitation !== 'none') {
    Object.assign(defs, {
      StringSchema: elicitation.StringSchema,
      NumberSchema: elicitation.NumberSchema,
      BooleanSchema: elicitation.BooleanSchema,
      EnumSchema: elicitation.LegacyTitledEnumSchema,
    });
  }
  if (f.elicitation !== 'none' && f.elicitation !== 'form') {
    const single = [
      elicitation.UntitledSingleSelectEnumSchema,
      elicitation.TitledSingleSelectEnumSchema,
    ] as const;
    const multi = [
      elicitation.UntitledMultiSelectEnumSchema,
      elicitation.TitledMultiSelectEnumSchema,
    ] as const;
    Object.assign(defs, {
      UntitledSingleSelectEnumSchema: single[0],
      TitledSingleSelectEnumSchema: single[1],
      UntitledMultiSelectEnumSchema: multi[0],
      TitledMultiSelectEnumSchema: multi[1],
      LegacyTitledEnumSchema: elicitation.LegacyTitledEnumSchema,
      SingleSelectEnumSchema: z.union(single),
      MultiSelectEnumSchema: z.union(multi),
      EnumSchema: z.union([...single, ...multi, elicitation.LegacyTitledEnumSchema]),
      Icon: p.Icon,
      Icons: z.looseObject({ icons: z.array(p.Icon).optional() }),
    });
  }
  if (f.samplingTools) {
    Object.assign(defs, {
      ToolUseContent: content.toolUseContent(),
      ToolResultContent: content.toolResultContent(f),
      ToolChoice: sampling.ToolChoice,
    });
  }
  if (f.tasks) {
    Object.assign(defs, {
      Task: tasks.Task,
      TaskStatus: tasks.TaskStatus,
      TaskMetadata: tasks.TaskMetadata,
      CreateTaskResult: tasks.CreateTaskResult,
      ToolExecution: entities.ToolExecution,
      RelatedTaskMetadata: z.looseObject({ taskId: z.string() }),
    });
  }
  if (f.modern) {
    Object.assign(defs, {
      MetaObject: p.MetaObject,
      RequestMetaObject: msg.RequestMetaObject,
      ResultMetaObject: msg.ResultMetaObject,
      NotificationMetaObject: msg.NotificationMetaObject,
      JSONValue: p.JsonValue,
      JSONObject: p.JsonObject,
      JSONArray: z.array(z.unknown()),
      ResultType: z.string(),
      SubscriptionFilter,
      SubscriptionsListenResultMetaObject: ListenResultMetaObject,
      CacheableResult: msg.result(f, msg.cacheHints).extend({ resultType: z.string() }),
    });
  }
  return defs;
}

/** The standard and MCP-specific error definitions of a revision. */
export function errorDefinitions(f: WireFeatures): Defs {
  const ErrorResponse = msg.errorResponse();
  const defs: Defs = f.errorIdOptional
    ? { JSONRPCErrorResponse: ErrorResponse }
    : { JSONRPCError: ErrorResponse };
  if (!f.modern) return defs;
  const codes = { ParseError: -32700, InvalidRequestError: -32600, MethodNotFoundError: -32601 };
  for (const [name, code] of Object.entries({
    ...codes,
    InvalidParamsError: -32602,
    InternalError: -32603,
  })) {
    defs[name] = msg.errorWithCode(code);
  }
  defs.HeaderMismatchError = msg.errorResponse(msg.errorWithCode(-32020));
  defs.MissingRequiredClientCapabilityError = msg.errorResponse(
    msg.errorWithCode(-32021, z.looseObject({ requiredCapabilities: ClientCapabilities })),
  );
  defs.UnsupportedProtocolVersionError = msg.errorResponse(
    msg.errorWithCode(
      -32022,
      z.looseObject({ supported: z.array(z.string()), requested: z.string() }),
    ),
  );
  return defs;
}

/** The generic JSON-RPC shapes: any request, notification, result or message. */
export function envelopeDefinitions(f: WireFeatures): Defs {
  const params = p.JsonObject;
  const Result = f.modern
    ? z.looseObject({ resultType: z.string(), _meta: msg.ResultMetaObject.optional() })
    : z.looseObject({ _meta: p.MetaObject.optional() });
  const JSONRPCRequest = z.looseObject({
    jsonrpc: msg.JsonRpcVersion,
    id: p.RequestId,
    method: z.string(),
    params: params.optional(),
  });
  const JSONRPCNotification = z.looseObject({
    jsonrpc: msg.JsonRpcVersion,
    method: z.string(),
    params: params.optional(),
  });
  const JSONRPCResultResponse = msg.resultResponse(Result);
  const response = f.errorIdOptional ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
  return {
    Request: z.looseObject({ method: z.string(), params: params.optional() }),
    Notification: z.looseObject({ method: z.string(), params: params.optional() }),
    Result,
    EmptyResult: Result,
    JSONRPCRequest,
    JSONRPCNotification,
    [response]: JSONRPCResultResponse,
    JSONRPCMessage: z.union([
      JSONRPCRequest,
      JSONRPCNotification,
      JSONRPCResultResponse,
      msg.errorResponse(),
    ]),
    ...(f.errorIdOptional
      ? { JSONRPCResponse: z.union([JSONRPCResultResponse, msg.errorResponse()]) }
      : {}),
  };
}

/** Adds the message, params, result and response definitions of one method. */
export function addMethodDefinitions(
  defs: Defs,
  m: ZodMethod,
  f: WireFeatures,
  embedded = false,
): void {
  const params = m.params instanceof z.ZodOptional ? (m.params.unwrap() as z.ZodType) : m.params;
  if (embedded) {
    defs[m.definition] = z.looseObject({ method: z.literal(m.method), params: m.params });
  } else if (m.kind === 'request') {
    defs[m.definition] = msg.requestMessage(m.method, m.params);
  } else {
    defs[m.definition] = msg.notificationMessage(m.method, m.params);
  }
  defs[`${m.definition}Params`] = params;
  if (!m.resultDefinition || !m.completeResult || !m.result) return;
  if (m.resultDefinition !== 'EmptyResult') defs[m.resultDefinition] = m.completeResult;
  if (f.modern && !embedded) defs[`${m.resultDefinition}Response`] = msg.resultResponse(m.result);
}

/**
 * `ClientRequest`, `ServerNotification`, … as unions of the revision's messages, and
 * `ServerResult` / `ClientResult` as unions of the results each side sends.
 */
export function messageUnions(methods: readonly ZodMethod[], defs: Defs): Defs {
  const bySender = (kind: ZodMethod['kind'], side: 'client' | 'server') =>
    methods.filter((m) => m.kind === kind && (m.sender === side || m.sender === 'both'));
  const union = (kind: ZodMethod['kind'], side: 'client' | 'server') => {
    const options = bySender(kind, side)
      .map((m) => defs[m.definition])
      .filter((s): s is z.ZodType => s !== undefined);
    return options.length > 0 ? { [`${cap(side)}${cap(kind)}`]: z.union(options) } : {};
  };
  // The side that answers a request sends its result: servers answer client requests.
  const results = (answered: 'client' | 'server') =>
    z.union([
      defs.Result as z.ZodType,
      ...bySender('request', answered).flatMap((m) => (m.result ? [m.result] : [])),
    ]);
  return {
    ...union('request', 'client'),
    ...union('request', 'server'),
    ...union('notification', 'client'),
    ...union('notification', 'server'),
    ServerResult: results('client'),
    ClientResult: results('server'),
  };
}

/** The generic building blocks the spec names: paginated shapes, bare params, annotations. */
export function genericDefinitions(f: WireFeatures, defs: Defs): Defs {
  const out: Defs = {
    NotificationParams: msg.notificationParams(f, {}, false),
    PaginatedRequest: z.looseObject({
      jsonrpc: msg.JsonRpcVersion,
      id: p.RequestId,
      method: z.string(),
      params: defs.ListToolsRequestParams as z.ZodType,
    }),
    PaginatedResult: msg.result(f, { nextCursor: p.Cursor.optional() }),
    ResourceRequestParams: msg.requestParams(f, { uri: z.string() }, false),
  };
  if (!f.richContent) out.Annotated = z.looseObject({ annotations: p.Annotations.optional() });
  if (f.tasks) {
    out.TaskAugmentedRequestParams = msg.requestParams(f, tasks.taskParamField, false);
    out.URLElicitationRequiredError = msg.errorResponse(
      msg.errorWithCode(
        -32042,
        z.looseObject({ elicitations: z.array(defs.ElicitRequestURLParams as z.ZodType) }),
      ),
    );
  }
  return out;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
