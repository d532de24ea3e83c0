/**
 * The experimental API of `@twofold/protocol`: the MCP wire for revisions 2026-07-28,
 * 2025-11-25, 2025-06-18 and 2024-11-05. Importing this path opts in to APIs that may change
 * in any minor release (see docs/stability.md).
 *
 * @experimental
 * @packageDocumentation
 */

export { base64ToBytes, bytesToBase64, decodeBase64Url, encodeBase64Url } from './base64';
export {
  classifyInbound,
  type HttpPostFacts,
  type HttpRoute,
  type InboundEra,
  routeHttpPost,
} from './era';
export {
  ErrorCode,
  type ErrorObject,
  HeaderMismatchError,
  LocalError,
  LocalErrorCode,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  UnsupportedProtocolVersionError,
} from './errors';
export {
  buildRequestHeaders,
  checkRequestHeaders,
  decodeHeaderValue,
  encodeArgumentForHeader,
  encodeHeaderValue,
  encodeParamValue,
  type HeaderCheckResult,
  type HeaderDecodeResult,
  MCP_METHOD_HEADER,
  MCP_NAME_HEADER,
  MCP_PARAM_HEADER_PREFIX,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  mcpNameFor,
} from './http-headers';
export {
  createErrorResponse,
  createNotification,
  createRequest,
  createResultResponse,
  type DecodedMessage,
  type DecodeResult,
  decodeMessage,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isRequestId,
  JSONRPC_VERSION,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResultResponse,
  parseMessage,
} from './jsonrpc';
export {
  buildRequestMeta,
  formatTraceparent,
  LOGGING_LEVELS,
  META_KEYS,
  parseTraceparent,
  protocolVersionOf,
  type RequestEnvelope,
  readRequestEnvelope,
  readTraceContext,
  subscriptionIdOf,
  type TraceContext,
  type TraceParent,
  withServerInfo,
} from './meta';
export type * from './method-types';
export {
  classifyHttpProbe,
  classifyLegacyInitializeStatus,
  classifyStdioProbe,
  type HttpProbeObservation,
  type ProbeObservation,
  type ProbeOptions,
  type ProbeVerdict,
} from './probe';
export {
  findMethod,
  getWire,
  type MethodSchema,
  type Parsed,
  parseParams,
  parseResult,
  type SafeParseResult,
  type Sender,
  summarize,
  type Validator,
  type Wire,
  type WireFeatures,
  type WireIssue,
} from './registry';
export { RequestIdMap } from './request-id-map';
export {
  CACHEABLE_METHODS,
  type CacheHints,
  type CacheScope,
  INPUT_REQUIRED_METHODS,
  type Page,
  ResultType,
  readCacheHints,
  resultTypeOf,
} from './results';
export {
  type DirectoryChild,
  type GetSkillResult,
  isSkillName,
  type ListSkillsResult,
  type ReadDirectoryResult,
  type SkillEntry,
  type SkillFile,
  type SkillFrontmatter,
  type SkillsCapability,
  sameFrontmatter,
  skillDigest,
  skillFileBytes,
  skillNameOf,
  skillsWire,
} from './skills-common';
export {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  SKILL_MANIFEST,
  SKILL_URI_SCHEME,
  SKILLS_EXTENSION_ID,
  SKILLS_METHODS,
} from './skills-ids';
export {
  type CreateTaskResult,
  type DetailedTask,
  isTerminalTaskStatus,
  TASKS_EXTENSION_ID,
  TASKS_METHODS,
  type TaskInfo,
  type TaskStatus,
  TERMINAL_TASK_STATUSES,
  tasksWire,
  type UpdateTaskParams,
} from './tasks';
export {
  describeMcpFailure,
  describeMcpSpan,
  type McpSpanDescription,
  type McpSpanFailure,
  resultErrorType,
} from './telemetry';
export type { MessageContext, Transport, TransportSendOptions } from './transport';
export type * from './types';
export { isRecord, shallowCopy } from './util';
export {
  type Era,
  eraOf,
  isLegacyVersion,
  isModernVersion,
  isSupportedVersion,
  LATEST_LEGACY_VERSION,
  LATEST_VERSION,
  LEGACY_VERSIONS,
  type LegacyVersion,
  MODERN_VERSIONS,
  type ModernVersion,
  type ProtocolVersion,
  SUPPORTED_VERSIONS,
  selectLegacyVersion,
  selectMutualVersion,
} from './versions';
export {
  type CollectHeaderParamsResult,
  collectHeaderParams,
  type McpHeaderParam,
} from './x-mcp-header';
