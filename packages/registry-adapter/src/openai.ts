/**
 * `@twofold/registry-adapter/openai`: host tools as OpenAI function tools (Chat Completions and
 * Responses, optionally strict), a runner that answers the model's function calls from a
 * registry, and OpenAI function definitions with their code as host tools. Uses only the types
 * of the optional peer `openai` (7.x).
 *
 * @experimental
 * @packageDocumentation
 */
export {
  dropStrictNulls,
  type OpenAiToolsOptions,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
} from './adapters/openai/definitions';
export {
  fromOpenAiTools,
  type OpenAiFunctionDefinition,
  type OpenAiFunctionImplementation,
} from './adapters/openai/from-openai';
export { type RunOpenAiToolCallOptions, runOpenAiToolCall } from './adapters/openai/run';
export { isToolInputRequiredError, ToolInputRequiredError } from './adapters/shared/errors';
export type { AdapterInvokeOptions, ToolSource } from './adapters/shared/invoke';
export type { SchemaChange } from './schema/reports';
