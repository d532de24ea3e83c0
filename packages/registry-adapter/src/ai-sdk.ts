/**
 * `@twofold/registry-adapter/ai-sdk`: host tools (for example MCP tools imported into a registry)
 * as Vercel AI SDK tools, and AI SDK tools as host tools. Needs the optional peer `ai` (7.x).
 *
 * @experimental
 * @packageDocumentation
 */
export {
  type FromAiSdkToolsOptions,
  fromAiSdkTools,
  modelOutputToResult,
} from './adapters/ai-sdk/from-ai-sdk';
export {
  type AiSdkModelOutput,
  modelOutput,
  type ToAiSdkToolsOptions,
  toAiSdkTool,
  toAiSdkTools,
} from './adapters/ai-sdk/to-ai-sdk';
export { isToolInputRequiredError, ToolInputRequiredError } from './adapters/shared/errors';
export type { AdapterInvokeOptions, ToolSource } from './adapters/shared/invoke';
export type { SchemaLoss } from './schema/reports';
