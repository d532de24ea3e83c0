/**
 * The experimental API of `@twofold/server`: one `McpServer` whose tools, resources and prompts
 * are written once and served to modern (2026-07-28, stateless) and legacy (2025-11-25,
 * 2025-06-18, 2024-11-05) clients, over any transport and over HTTP, where it can be an OAuth
 * 2.1 resource server (`auth`, `jwtVerifier`). The web-standard HTTP endpoint,
 * `createServerHttpHandler`, is on `@twofold/server/http`; `serveStdio` and `serveHttp` live on
 * `@twofold/server/node`. Every export may change in any minor release.
 *
 * @experimental
 * @packageDocumentation
 */
export type {
  CachePolicy,
  CompletionContext,
  InputResponse,
  PromptDefinition,
  Registered,
  RequestContext,
  ResourceDefinition,
  ResourceTemplateDefinition,
  SchemaInput,
  TaskContext,
  TaskSupport,
  ToolDefinition,
  ToolReturn,
} from './api';
export { InputRequired } from './api';
export { type JwtVerifierOptions, jwtVerifier } from './auth/jwt-verifier';
export {
  type AuthInfo,
  type HttpAuthOptions,
  InvalidTokenError,
  type ProtectedResourceMetadata,
  type TokenVerifier,
} from './auth/types';
export type { ExtensionMethod } from './core/extension-methods';
export type {
  InstrumentedServerRequest,
  ServerInstrumentation,
  ServerRequestObserver,
} from './core/instrumentation';
export type { ModernIo } from './core/modern-io';
export type { ListenOptions, McpServerOptions, RequestStateOptions } from './core/options';
export type { ServedServer } from './core/served-server';
export type { ChangeBus, ClaimResult, ReplayGuard } from './core/shared-state';
export type {
  TaskAskedInput,
  TaskInputRound,
  TaskOptions,
  TaskRecord,
  TaskRequest,
  TaskStore,
} from './core/task-store';
export type { LegacyEngineOptions } from './legacy/engine';
export type { OutboundRequestOptions } from './legacy/outbound-requests';
export {
  type LegacySessionHandle,
  type LegacySessionOptions,
  startLegacySession,
} from './legacy/start-session';
export { InMemoryChangeBus } from './listen/change-bus';
export { handleModernRequest } from './modern/dispatch';
export { InputResponseError } from './mrtr/input-responses';
export {
  type OpenedState,
  type RefusedStateReason,
  type RequestBinding,
  RequestStateCodec,
} from './mrtr/request-state';
export {
  type Change,
  type Listed,
  OperationError,
  type Operations,
  type ScopeTarget,
} from './operations/types';
export {
  RegistryOperations,
  type RegistryOperationsOptions,
} from './registry/registry-operations';
export { compileSchema, compileToolInputSchema } from './schema/compile';
export type { CompiledSchema, SchemaIo, ValidationResult } from './schema/types';
export { isZodShape } from './schema/zod-shape';
export {
  type ServedConnection,
  type ServeTransportOptions,
  serveTransport,
} from './serve/serve-transport';
export { McpServer } from './server';
export type { SkillDefinition } from './skills/definition';
export type { Skill, SkillFileSource } from './skills/skill';
export {
  InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
  TaskStoreFullError,
} from './tasks/store';
