// Pins every package's experimental export list, so that adding or removing an export is a
// deliberate edit of this file. Reads the built entries (turbo builds the packages before this
// test): what users import, not what the sources say.
import { describe, expect, it } from 'vitest';

/** The sorted export names of a package's built `./experimental` entry. */
async function exportNames(pkg: string): Promise<string[]> {
  const entry = (await import(`${pkg}/experimental`)) as Record<string, unknown>;
  return Object.keys(entry).sort();
}

describe('experimental export lists', () => {
  it('@twofold/cli/experimental', async () => {
    expect(await exportNames('@twofold/cli')).toEqual([
      'CliError',
      'EXIT',
      'doctorExitCode',
      'exitCodeFor',
      'formatDoctorReport',
      'listDoctorChecks',
      'processIo',
      'runCli',
      'runDoctor',
      'startHttpBridge',
      'startStdioBridge',
      'summarizeChecks',
    ]);
  });

  it('@twofold/client/experimental', async () => {
    expect(await exportNames('@twofold/client')).toEqual([
      'AuthorizationError',
      'InMemoryCacheStore',
      'InMemoryTokenStore',
      'McpClient',
      'OAuthProvider',
      'SkillVerificationError',
      'SkillsClient',
      'ToolTask',
      'httpServer',
      'restoreVerdict',
      'storeVerdict',
    ]);
  });

  it('@twofold/protocol/experimental', async () => {
    expect(await exportNames('@twofold/protocol')).toEqual([
      'CACHEABLE_METHODS',
      'DIRECTORY_MIME_TYPE',
      'ErrorCode',
      'HeaderMismatchError',
      'INPUT_REQUIRED_METHODS',
      'JSONRPC_VERSION',
      'LATEST_LEGACY_VERSION',
      'LATEST_VERSION',
      'LEGACY_VERSIONS',
      'LOGGING_LEVELS',
      'LocalError',
      'LocalErrorCode',
      'MCP_METHOD_HEADER',
      'MCP_NAME_HEADER',
      'MCP_PARAM_HEADER_PREFIX',
      'MCP_PROTOCOL_VERSION_HEADER',
      'MCP_SESSION_ID_HEADER',
      'META_KEYS',
      'MODERN_VERSIONS',
      'MissingRequiredClientCapabilityError',
      'ProtocolError',
      'RequestIdMap',
      'ResultType',
      'SKILLS_EXTENSION_ID',
      'SKILLS_METHODS',
      'SKILL_LIMITS',
      'SKILL_MANIFEST',
      'SKILL_URI_SCHEME',
      'SUPPORTED_VERSIONS',
      'TASKS_EXTENSION_ID',
      'TASKS_METHODS',
      'TERMINAL_TASK_STATUSES',
      'UnsupportedProtocolVersionError',
      'base64ToBytes',
      'buildRequestHeaders',
      'buildRequestMeta',
      'bytesToBase64',
      'checkRequestHeaders',
      'classifyHttpProbe',
      'classifyInbound',
      'classifyLegacyInitializeStatus',
      'classifyStdioProbe',
      'collectHeaderParams',
      'createErrorResponse',
      'createNotification',
      'createRequest',
      'createResultResponse',
      'decodeBase64Url',
      'decodeHeaderValue',
      'decodeMessage',
      'describeMcpFailure',
      'describeMcpSpan',
      'encodeArgumentForHeader',
      'encodeBase64Url',
      'encodeHeaderValue',
      'encodeParamValue',
      'eraOf',
      'findMethod',
      'formatTraceparent',
      'getWire',
      'isJsonRpcNotification',
      'isJsonRpcRequest',
      'isJsonRpcResponse',
      'isLegacyVersion',
      'isModernVersion',
      'isRecord',
      'isRequestId',
      'isSkillName',
      'isSupportedVersion',
      'isTerminalTaskStatus',
      'mcpNameFor',
      'parseMessage',
      'parseParams',
      'parseResult',
      'parseTraceparent',
      'protocolVersionOf',
      'readCacheHints',
      'readRequestEnvelope',
      'readTraceContext',
      'resultErrorType',
      'resultTypeOf',
      'routeHttpPost',
      'sameFrontmatter',
      'selectLegacyVersion',
      'selectMutualVersion',
      'shallowCopy',
      'skillDigest',
      'skillFileBytes',
      'skillNameOf',
      'skillsWire',
      'subscriptionIdOf',
      'summarize',
      'tasksWire',
      'withServerInfo',
    ]);
  });

  it('@twofold/registry-adapter/experimental', async () => {
    expect(await exportNames('@twofold/registry-adapter')).toEqual([
      'DEFAULT_NAME_RULES',
      'InMemoryToolRegistry',
      'InputRoundsExceededError',
      'McpConfigError',
      'McpToolProvider',
      'ToolNameConflictError',
      'ToolUnavailableError',
      'annotationsFor',
      'checkMcpConfig',
      'closestName',
      'configServers',
      'defineTool',
      'filterVerdict',
      'fitName',
      'httpServerEntrySchema',
      'isSecretKeyName',
      'isValidName',
      'matchesFilter',
      'matchesGlob',
      'mcpConfigJsonSchema',
      'mcpConfigSchema',
      'normalizeSchema',
      'parseJsonObject',
      'parseMcpConfig',
      'parseMcpConfigText',
      'parseServerEntry',
      'planNames',
      'redactSecrets',
      'resolveNameRules',
      'resolveSecrets',
      'restartPolicySchema',
      'sanitizeName',
      'secretIssues',
      'serverEntrySchema',
      'serverFromRegistry',
      'serversKeyOf',
      'shortenName',
      'stdioServerEntrySchema',
      'storedVerdictSchema',
      'toolFilterSchema',
      'withConfigServers',
    ]);
  });

  it('@twofold/redis/experimental', async () => {
    expect(await exportNames('@twofold/redis')).toEqual([
      'RedisChangeBus',
      'RedisEventStore',
      'RedisReplayGuard',
      'RedisTaskStore',
      'connectRedisState',
    ]);
  });

  it('@twofold/server/experimental', async () => {
    expect(await exportNames('@twofold/server')).toEqual([
      'InMemoryChangeBus',
      'InMemoryTaskStore',
      'InputRequired',
      'InputResponseError',
      'InvalidTokenError',
      'McpServer',
      'OperationError',
      'RegistryOperations',
      'RequestStateCodec',
      'TaskStoreFullError',
      'compileSchema',
      'compileToolInputSchema',
      'handleModernRequest',
      'isZodShape',
      'jwtVerifier',
      'serveTransport',
      'startLegacySession',
    ]);
  });

  it('@twofold/transports/experimental', async () => {
    expect(await exportNames('@twofold/transports')).toEqual([
      'DEFAULT_INVALID_LINE_PREVIEW_CHARS',
      'DEFAULT_MAX_MESSAGE_BYTES',
      'MAX_AUTHORIZATION_RETRIES',
      'NdjsonDecoder',
      'SseParser',
      'createInMemoryPair',
      'encodeNdjsonLine',
      'encodeSseComment',
      'encodeSseEvent',
    ]);
  });

  it('the HTTP server entries, kept out of ./experimental so that a stdio program skips them', async () => {
    const server = (await import('@twofold/server/http')) as Record<string, unknown>;
    const transports = (await import('@twofold/transports/http-server')) as Record<string, unknown>;
    expect(Object.keys(server).sort()).toEqual([
      'RANDOM_REQUEST_STATE_KEY_WARNING',
      'createServerHttpHandler',
    ]);
    expect(Object.keys(transports).sort()).toEqual([
      'HttpServerTransport',
      'InMemoryEventStore',
      'Reply',
      'createHttpHandler',
      'guardHandler',
    ]);
  });

  it('the skills entries: the SKILL.md reader, kept out of ./experimental with its YAML parser', async () => {
    const protocol = (await import('@twofold/protocol/skills')) as Record<string, unknown>;
    const server = (await import('@twofold/server/skills')) as Record<string, unknown>;
    expect(Object.keys(protocol).sort()).toEqual(['parseSkillFrontmatter']);
    expect(Object.keys(server).sort()).toEqual(['defineSkill']);
  });
});
