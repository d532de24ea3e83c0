/**
 * `@twofold/registry-adapter/node` (Node only): `ServerManager`, a supervised set of MCP
 * servers from an `mcp.json` feeding one host tool registry, and `mcp.json` file I/O (atomic
 * writes, serialised read-modify-write).
 *
 * @experimental
 * @packageDocumentation
 */
export { ServerManager } from './manager/manager';
export { type ManagedTarget, managedTarget, type TargetContext } from './manager/targets';
export type {
  FailurePhase,
  ManagedServerState,
  ManagedServerStatus,
  ManagerConfigSource,
  ManagerEvent,
  ServerManagerOptions,
} from './manager/types';
export {
  readMcpConfigFile,
  updateMcpConfigFile,
  writeMcpConfigFile,
} from './node/config-file';
