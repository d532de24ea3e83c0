/**
 * The experimental API of `@twofold/registry-adapter`: a host's tool registry, MCP servers'
 * tools imported into it (`McpToolProvider`), a registry published as an MCP server
 * (`serverFromRegistry`), the naming rules both sides share, host-specific schema copies, and
 * the `mcp.json` format. Runtime-neutral; the supervised `ServerManager` and file I/O live on
 * `@twofold/registry-adapter/node`, the host-format adapters on `./ai-sdk`, `./openai` and
 * `./langchain`. Every export may change in any minor release.
 *
 * @experimental
 * @packageDocumentation
 */
export { McpConfigError, type McpConfigIssue } from './config/errors';
export { type McpConfigDocument, parseJsonObject, parseMcpConfigText } from './config/json-text';
export { checkMcpConfig, parseMcpConfig, parseServerEntry } from './config/parse';
export {
  httpServerEntrySchema,
  type McpConfigInput,
  mcpConfigJsonSchema,
  mcpConfigSchema,
  restartPolicySchema,
  type SecretIssue,
  type ServerEntryInput,
  secretIssues,
  serverEntrySchema,
  stdioServerEntrySchema,
  storedVerdictSchema,
  toolFilterSchema,
} from './config/schema';
export { looksSecretKey as isSecretKeyName } from './config/secret-rules';
export { redactSecrets, resolveSecrets } from './config/secrets';
export {
  configServers,
  type ServersKey,
  serversKeyOf,
  withConfigServers,
} from './config/shape';
export { closest as closestName } from './config/suggest';
export type {
  HttpServerEntry,
  McpConfig,
  RestartPolicy,
  ServerEntry,
  ServerEntryCommon,
  StdioServerEntry,
  StoredVerdict,
} from './config/types';
export {
  defineTool,
  type FunctionToolDefinition,
  type FunctionToolReturn,
} from './export/function-tool';
export type { ConversionReport, ToolConversion } from './export/report';
export { annotationsFor, type ToolSemantics } from './export/semantics';
export {
  type RegistryServer,
  type RegistryServerOptions,
  serverFromRegistry,
} from './export/server';
export type { AdaptedInputState } from './import/adapted-tool';
export {
  InputRoundsExceededError,
  ToolNameConflictError,
  ToolUnavailableError,
} from './import/errors';
export { type ConnectOptions, McpToolProvider } from './import/provider';
export type { AttachOptions, ProviderEvent, ToolProviderOptions } from './import/types';
export { filterVerdict, matchesFilter, matchesGlob } from './names/filter';
export { type NameConflict, type NamePlan, type PlanServer, planNames } from './names/plan';
export {
  DEFAULT_NAME_RULES,
  fitName,
  isValidName,
  resolveNameRules,
  sanitizeName,
  shortenName,
} from './names/rules';
export type {
  ConflictPolicy,
  ConflictResolver,
  NameAssignment,
  NameRules,
  SkippedTool,
  ToolFilter,
} from './names/types';
export { InMemoryToolRegistry } from './registry/memory';
export type {
  HostTool,
  InputRequiredOutcome,
  InputResolver,
  InvokeContext,
  JsonSchema,
  RegistryChange,
  ToolOrigin,
  ToolOutcome,
  ToolProgress,
  ToolRegistry,
} from './registry/types';
export {
  type NormalizedSchema,
  type NormalizeOptions,
  type NormalizeProfile,
  normalizeSchema,
} from './schema/normalize';
export type { SchemaChange, SchemaLoss } from './schema/reports';
