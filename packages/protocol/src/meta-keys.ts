/** The `_meta` key names and the logging levels: constants the wire schemas and the readers share. */

/**
 * Keys of the reserved `_meta` entries of 2026-07-28.
 *
 * @experimental
 */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  relatedTask: 'io.modelcontextprotocol/related-task',
  progressToken: 'progressToken',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  baggage: 'baggage',
} as const;

/**
 * The logging levels from least to most severe: a client asking for a level gets that level
 * and every level after it.
 *
 * @experimental
 */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
