/**
 * `@twofold/registry-adapter/langchain`: host tools as LangChain.js structured tools, and
 * LangChain tools as host tools. Needs the optional peer `@langchain/core` (1.x).
 *
 * @experimental
 * @packageDocumentation
 */
export {
  type FromLangChainToolsOptions,
  fromLangChainTools,
} from './adapters/langchain/from-langchain';
export {
  type LangChainToolContent,
  langChainContent,
  type ToLangChainToolsOptions,
  toLangChainTool,
  toLangChainTools,
} from './adapters/langchain/to-langchain';
export { isToolInputRequiredError, ToolInputRequiredError } from './adapters/shared/errors';
export type { AdapterInvokeOptions, ToolSource } from './adapters/shared/invoke';
export type { SchemaLoss } from './schema/reports';
