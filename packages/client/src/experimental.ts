/**
 * The experimental API of `@twofold/client`: `McpClient`, the dual-era MCP client, with its
 * options, the HTTP target on fetch, and the cache store. Runtime-neutral; the stdio target and
 * the HTTP target on undici live on `@twofold/client/node`. Every export may change in any
 * minor release.
 *
 * @experimental
 * @packageDocumentation
 */
export { AuthorizationError, type AuthorizationStep } from './auth/errors';
export { InMemoryTokenStore } from './auth/memory-store';
export { OAuthProvider } from './auth/provider';
export type * from './auth/types';
export { InMemoryCacheStore, type InMemoryCacheStoreOptions } from './cache/memory-store';
export type { CacheEntry, CacheStore } from './cache/store';
export { McpClient } from './client';
export { restoreVerdict, type StoredEraVerdict, storeVerdict } from './era/stored-verdict';
export type * from './instrumentation';
export { SkillVerificationError, type SkillVerificationFailure } from './skills/errors';
export { type LoadedSkill, type SkillFileContent, SkillsClient } from './skills/skills-client';
export { type HttpServerOptions, httpServer } from './targets/http';
export type { TaskHandleOptions, ToolCallStart } from './tasks/tool-calls';
export { type TaskWaitOptions, ToolTask } from './tasks/tool-task';
export type * from './types';
