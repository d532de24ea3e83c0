/** One revision's method table, built from the feature flags of that revision. */
import { z } from 'zod';
import { contentBlock } from './content';
import { elicitFormFields, elicitResultFields, elicitUrlFields } from './elicitation';
import { promptMessage, Root, tool } from './entities';
import type { WireFeatures } from './features';
import { ResultMetaObject } from './messages';
import {
  bareResult,
  buildNotification,
  buildRequest,
  embeddedParams,
  type NotificationSpec,
  type RequestSpec,
  type ZodMethod,
} from './method-spec';
import { Cursor, LoggingLevel, MetaObject, ProgressToken, RequestId } from './primitives';
import { createMessageFields, createMessageResultFields } from './sampling';
import * as shapes from './shapes';
import { taskNotifications, taskRequests } from './task-methods';
import { TaskMetadata } from './tasks';

const _paginated = { cursor: Cursor.optional() };
const _nextCursor = { nextCursor: Cursor.optional() };
const emptyParams = {};

export const SubscriptionFilter = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
});

/** Builds the shared pieces and the method table of a revision. */
export function buildMethodTable(f: WireFeatures) {
  const ContentBlock = contentBlock(f);
  const Tool = tool(f);
  const PromptMessage = promptMessage(ContentBlock);
  const clientFeatures = clientFeatureRequests(f, Tool);
  const mrtr = f.modern ? mrtrSchemas(clientFeatures) : undefined;

  const requests: RequestSpec[] = [
    ...(f.modern ? [discoverRequest] : []),
    {
      method: 'tools/list',
      definition: 'ListToolsRequest',
      params: shapes.paginatedParams,
      optionalParams: true,
      result: shapes.listToolsResult(f),
      resultDefinition: 'ListToolsResult',
      cacheable: true,
    },
    {
      method: 'tools/call',
      definition: 'CallToolRequest',
      params: shapes.callToolParams,
      result: shapes.callToolResult(f),
      resultDefinition: 'CallToolResult',
      inputRequired: true,
      taskAugmented: true,
    },
    {
      method: 'prompts/list',
      definition: 'ListPromptsRequest',
      params: shapes.paginatedParams,
      optionalParams: true,
      result: shapes.listPromptsResult,
      resultDefinition: 'ListPromptsResult',
      cacheable: true,
    },
    {
      method: 'prompts/get',
      definition: 'GetPromptRequest',
      params: shapes.getPromptParams,
      result: shapes.getPromptResult(f),
      resultDefinition: 'GetPromptResult',
      inputRequired: true,
    },
    {
      method: 'resources/list',
      definition: 'ListResourcesRequest',
      params: shapes.paginatedParams,
      optionalParams: true,
      result: shapes.listResourcesResult,
      resultDefinition: 'ListResourcesResult',
      cacheable: true,
    },
    {
      method: 'resources/templates/list',
      definition: 'ListResourceTemplatesRequest',
      params: shapes.paginatedParams,
      optionalParams: true,
      result: shapes.listResourceTemplatesResult,
      resultDefinition: 'ListResourceTemplatesResult',
      cacheable: true,
    },
    {
      method: 'resources/read',
      definition: 'ReadResourceRequest',
      params: shapes.readResourceParams,
      result: shapes.readResourceResult,
      resultDefinition: 'ReadResourceResult',
      cacheable: true,
      inputRequired: true,
    },
    completeRequest(f),
    ...(f.modern ? [listenRequest] : legacyRequests(f, clientFeatures)),
  ];
  const notifications: NotificationSpec[] = [
    {
      method: 'notifications/cancelled',
      definition: 'CancelledNotification',
      sender: 'both',
      // 2025-11-25 made requestId optional (task cancellation); the others require it.
      params: {
        requestId: f.tasks ? RequestId.optional() : RequestId,
        reason: z.string().optional(),
      },
    },
    {
      method: 'notifications/progress',
      definition: 'ProgressNotification',
      sender: f.modern ? 'server' : 'both',
      params: {
        progressToken: ProgressToken,
        progress: z.number(),
        total: z.number().optional(),
        message: z.string().optional(),
      },
    },
    {
      method: 'notifications/message',
      definition: 'LoggingMessageNotification',
      sender: 'server',
      params: { level: LoggingLevel, logger: z.string().optional(), data: z.unknown() },
    },
    listChanged('notifications/tools/list_changed', 'ToolListChangedNotification'),
    listChanged('notifications/prompts/list_changed', 'PromptListChangedNotification'),
    listChanged('notifications/resources/list_changed', 'ResourceListChangedNotification'),
    {
      method: 'notifications/resources/updated',
      definition: 'ResourceUpdatedNotification',
      sender: 'server',
      params: { uri: z.string() },
    },
    ...(f.modern ? [acknowledgedNotification] : legacyNotifications(f)),
  ];

  const methods: ZodMethod[] = [
    ...requests.map((spec) => buildRequest(f, spec, mrtr)),
    ...notifications.map((spec) => buildNotification(f, spec)),
  ];
  return { methods, Tool, PromptMessage, ContentBlock, clientFeatures, mrtr };
}

function listChanged(method: string, definition: string): NotificationSpec {
  return { method, definition, sender: 'server', optionalParams: true };
}

const discoverRequest: RequestSpec = {
  method: 'server/discover',
  definition: 'DiscoverRequest',
  params: emptyParams,
  result: shapes.discoverResult,
  resultDefinition: 'DiscoverResult',
  cacheable: true,
};

const completeRequest = (f: WireFeatures): RequestSpec => ({
  method: 'completion/complete',
  definition: 'CompleteRequest',
  params: shapes.completeParams,
  result: shapes.completeResult(f),
  resultDefinition: 'CompleteResult',
});

/** The listen result's `_meta`: it must name the subscription (the listen request id). */
export const ListenResultMetaObject = ResultMetaObject.extend({
  'io.modelcontextprotocol/subscriptionId': RequestId,
});

const listenRequest: RequestSpec = {
  method: 'subscriptions/listen',
  definition: 'SubscriptionsListenRequest',
  params: { notifications: SubscriptionFilter },
  resultDefinition: 'SubscriptionsListenResult',
  result: z.looseObject({
    resultType: z.literal('complete'),
    _meta: ListenResultMetaObject,
  }),
};

const acknowledgedNotification: NotificationSpec = {
  method: 'notifications/subscriptions/acknowledged',
  definition: 'SubscriptionsAcknowledgedNotification',
  sender: 'server',
  params: { notifications: SubscriptionFilter },
};

/**
 * Sampling, roots and elicitation: server→client JSON-RPC requests in legacy revisions, and the
 * embedded input requests of MRTR in modern ones.
 */
function clientFeatureRequests(f: WireFeatures, Tool: z.ZodType): RequestSpec[] {
  const specs: RequestSpec[] = [
    {
      method: 'sampling/createMessage',
      definition: 'CreateMessageRequest',
      sender: 'server',
      params: createMessageFields(f, Tool),
      result: createMessageResultFields(f),
      resultDefinition: 'CreateMessageResult',
      taskAugmented: true,
    },
    {
      method: 'roots/list',
      definition: 'ListRootsRequest',
      sender: 'server',
      params: emptyParams,
      optionalParams: true,
      result: { roots: z.array(Root) },
      resultDefinition: 'ListRootsResult',
    },
  ];
  const elicit = elicitParams(f);
  if (elicit) {
    specs.push({
      method: 'elicitation/create',
      definition: 'ElicitRequest',
      sender: 'server',
      params: elicit.params,
      result: elicitResultFields(f),
      resultDefinition: 'ElicitResult',
      taskAugmented: true,
    });
  }
  return specs;
}

/** The `elicitation/create` params of a revision: form mode, and URL mode where it exists. */
export function elicitParams(f: WireFeatures) {
  if (f.elicitation === 'none') return undefined;
  const meta = {
    _meta: MetaObject.optional(),
    ...(f.tasks ? { task: TaskMetadata.optional() } : {}),
  };
  const form = z.looseObject({ ...elicitFormFields(f), ...meta });
  if (f.elicitation === 'form') return { form, params: form };
  const url = z.looseObject({ ...elicitUrlFields(f), ...meta });
  return { form, url, params: z.union([form, url]) };
}

function mrtrSchemas(inputs: RequestSpec[]) {
  const requestOptions = inputs.map((s) =>
    z.looseObject({ method: z.literal(s.method), params: embeddedParams(s) }),
  );
  const InputRequest = z.discriminatedUnion(
    'method',
    requestOptions as [(typeof requestOptions)[0]],
  );
  const InputResponse = z.union(inputs.map(bareResult));
  const InputRequests = z.record(z.string(), InputRequest);
  const InputResponses = z.record(z.string(), InputResponse);
  const InputRequiredResult = z.looseObject({
    resultType: z.literal('input_required'),
    inputRequests: InputRequests.optional(),
    requestState: z.string().optional(),
    _meta: ResultMetaObject.optional(),
  });
  const params = { inputResponses: InputResponses.optional(), requestState: z.string().optional() };
  return {
    params,
    InputRequest,
    InputResponse,
    InputRequests,
    InputResponses,
    InputRequiredResult,
  };
}

function legacyRequests(f: WireFeatures, clientFeatures: RequestSpec[]): RequestSpec[] {
  const uri = { uri: z.string() };
  const empty = { result: {}, resultDefinition: 'EmptyResult' };
  return [
    {
      method: 'initialize',
      definition: 'InitializeRequest',
      params: shapes.initializeParams,
      result: shapes.initializeResult,
      resultDefinition: 'InitializeResult',
    },
    {
      method: 'ping',
      definition: 'PingRequest',
      sender: 'both',
      params: emptyParams,
      optionalParams: true,
      ...empty,
    },
    {
      method: 'logging/setLevel',
      definition: 'SetLevelRequest',
      params: { level: LoggingLevel },
      ...empty,
    },
    { method: 'resources/subscribe', definition: 'SubscribeRequest', params: uri, ...empty },
    { method: 'resources/unsubscribe', definition: 'UnsubscribeRequest', params: uri, ...empty },
    ...clientFeatures,
    ...(f.tasks ? taskRequests : []),
  ];
}

function legacyNotifications(f: WireFeatures): NotificationSpec[] {
  return [
    {
      method: 'notifications/initialized',
      definition: 'InitializedNotification',
      sender: 'client',
      optionalParams: true,
    },
    {
      method: 'notifications/roots/list_changed',
      definition: 'RootsListChangedNotification',
      sender: 'client',
      optionalParams: true,
    },
    ...(f.tasks
      ? [
          ...taskNotifications,
          {
            method: 'notifications/elicitation/complete',
            definition: 'ElicitationCompleteNotification',
            sender: 'server' as const,
            params: { elicitationId: z.string() },
          },
        ]
      : []),
  ];
}
