/**
 * TypeScript types of the core methods' params and results, inferred from the same shapes the
 * method table validates with (`wire/shapes.ts`). Where revisions differ, the type is the union
 * of what they allow; modern-only fields (`resultType`, cache hints) are optional here.
 */
import type { z } from 'zod';
import type { CacheHints } from './results';
import type * as shapes from './wire/shapes';

type Fields<S extends z.core.$ZodShape> = z.infer<z.ZodObject<S>>;
type FieldsOf<F extends (...args: never[]) => z.core.$ZodShape> = Fields<ReturnType<F>>;

/**
 * Fields any request's params may carry. Modern requests must carry `_meta` (see
 * `buildRequestMeta`); legacy ones may.
 *
 * @experimental
 */
export interface RequestParamsFields {
  _meta?: Record<string, unknown>;
}

/**
 * Fields any result may carry. Modern results carry `resultType` (a missing one reads as
 * `complete`).
 *
 * @experimental
 */
export interface ResultFields {
  _meta?: Record<string, unknown>;
  resultType?: string;
}

/**
 * Cache hints: on cacheable modern results only.
 *
 * @experimental
 */
export type CacheableResultFields = ResultFields & Partial<CacheHints>;

/**
 * Params of the paginated list methods.
 *
 * @experimental
 */
export type PaginatedRequestParams = Fields<typeof shapes.paginatedParams> & RequestParamsFields;
/**
 * Params of `tools/call`.
 *
 * @experimental
 */
export type CallToolRequestParams = Fields<typeof shapes.callToolParams> & RequestParamsFields;
/**
 * Params of `prompts/get`.
 *
 * @experimental
 */
export type GetPromptRequestParams = Fields<typeof shapes.getPromptParams> & RequestParamsFields;
/**
 * Params of `resources/read`.
 *
 * @experimental
 */
export type ReadResourceRequestParams = Fields<typeof shapes.readResourceParams> &
  RequestParamsFields;
/**
 * Params of `completion/complete`.
 *
 * @experimental
 */
export type CompleteRequestParams = Fields<typeof shapes.completeParams> & RequestParamsFields;
/**
 * Params of the legacy `initialize`.
 *
 * @experimental
 */
export type InitializeRequestParams = Fields<typeof shapes.initializeParams> & RequestParamsFields;

/**
 * Result of `tools/list`.
 *
 * @experimental
 */
export type ListToolsResult = FieldsOf<typeof shapes.listToolsResult> & CacheableResultFields;
/**
 * Result of `tools/call` (complete; see `InputRequiredResult` for the other modern outcome).
 *
 * @experimental
 */
export type CallToolResult = FieldsOf<typeof shapes.callToolResult> & ResultFields;
/**
 * Result of `prompts/list`.
 *
 * @experimental
 */
export type ListPromptsResult = Fields<typeof shapes.listPromptsResult> & CacheableResultFields;
/**
 * Result of `prompts/get`.
 *
 * @experimental
 */
export type GetPromptResult = FieldsOf<typeof shapes.getPromptResult> & ResultFields;
/**
 * Result of `resources/list`.
 *
 * @experimental
 */
export type ListResourcesResult = Fields<typeof shapes.listResourcesResult> & CacheableResultFields;
/**
 * Result of `resources/templates/list`.
 *
 * @experimental
 */
export type ListResourceTemplatesResult = Fields<typeof shapes.listResourceTemplatesResult> &
  CacheableResultFields;
/**
 * Result of `resources/read`.
 *
 * @experimental
 */
export type ReadResourceResult = Fields<typeof shapes.readResourceResult> & CacheableResultFields;
/**
 * Result of `completion/complete`.
 *
 * @experimental
 */
export type CompleteResult = FieldsOf<typeof shapes.completeResult> & ResultFields;
/**
 * Result of the modern `server/discover`.
 *
 * @experimental
 */
export type DiscoverResult = Fields<typeof shapes.discoverResult> & CacheableResultFields;
/**
 * Result of the legacy `initialize`.
 *
 * @experimental
 */
export type InitializeResult = Fields<typeof shapes.initializeResult> & ResultFields;

/**
 * A request the server embeds in an `input_required` result (modern) or sends as a JSON-RPC
 * request (legacy): elicitation, sampling or roots.
 *
 * @experimental
 */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

/**
 * The modern interim result of `tools/call`, `prompts/get` and `resources/read`: the client
 * answers `inputRequests` and retries with `inputResponses` and the `requestState` echoed
 * byte-exact.
 *
 * @experimental
 */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: Record<string, unknown>;
}

/**
 * Params of `elicitation/create`: a form (`requestedSchema` of primitive fields) or, from
 * 2025-11-25, a URL the user is asked to open. 2025-11-25 URL requests also carry an
 * `elicitationId`; 2026-07-28 has none.
 *
 * @experimental
 */
export type ElicitRequestParams =
  | {
      mode?: 'form';
      message: string;
      requestedSchema: {
        type: 'object';
        properties: Record<string, Record<string, unknown>>;
        required?: string[];
      };
      _meta?: Record<string, unknown>;
    }
  | {
      mode: 'url';
      message: string;
      url: string;
      elicitationId?: string;
      _meta?: Record<string, unknown>;
    };

/**
 * The answer to an elicitation: `content` only with a form accepted.
 *
 * @experimental
 */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: Record<string, unknown>;
}

/**
 * Params of `sampling/createMessage` (the fields every revision shares are typed; the rest,
 * such as `tools` and `toolChoice`, pass through as they are).
 *
 * @experimental
 */
export interface CreateMessageRequestParams {
  messages: { role: 'user' | 'assistant'; content: unknown }[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The answer to a sampling request.
 *
 * @experimental
 */
export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: unknown;
  model: string;
  stopReason?: string;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The answer to `roots/list`.
 *
 * @experimental
 */
export interface ListRootsResult {
  roots: { uri: string; name?: string; _meta?: Record<string, unknown> }[];
  _meta?: Record<string, unknown>;
}
