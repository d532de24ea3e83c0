/**
 * The wire tour: one modern `tools/call` travels from a client's builder to a server's checks,
 * then the same server meets a legacy client, a client from the future and a malformed request.
 * Every step uses `@twofold/protocol` as a client or server built on it would; nothing is faked.
 */
import {
  buildRequestHeaders,
  buildRequestMeta,
  checkRequestHeaders,
  classifyInbound,
  classifyStdioProbe,
  collectHeaderParams,
  createErrorResponse,
  createRequest,
  decodeMessage,
  getWire,
  isSupportedVersion,
  LATEST_VERSION,
  ProtocolError,
  parseMessage,
  parseParams,
  routeHttpPost,
  SUPPORTED_VERSIONS,
  selectLegacyVersion,
  UnsupportedProtocolVersionError,
} from '@twofold/protocol/experimental';

const step = (title: string) => console.log(`\n── ${title}`);
const show = (label: string, value: unknown) =>
  console.log(`   ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

// A tool as a server would list it; `region` is mirrored into an HTTP header.
const weatherTool = {
  name: 'get_weather',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, region: { type: 'string', 'x-mcp-header': 'Region' } },
    required: ['city'],
  },
};

step('1. The client builds a modern tools/call (2026-07-28: no handshake, everything in _meta)');
const headerParams = collectHeaderParams(weatherTool.inputSchema);
if (!headerParams.ok) throw new Error(headerParams.errors.join('; '));
const request = createRequest(1, 'tools/call', {
  _meta: buildRequestMeta({
    protocolVersion: LATEST_VERSION,
    clientCapabilities: {},
    clientInfo: { name: 'wire-tour', version: '1.0.0' },
  }),
  name: 'get_weather',
  arguments: { city: 'Zürich', region: 'Europe/Central' },
});
const headers = buildRequestHeaders(request, LATEST_VERSION, headerParams.params);
const body = JSON.stringify(request);
show('body', body);
show('HTTP headers', headers);

step('2. The server receives it: envelope, era, headers against body, params — validated once');
const decoded = parseMessage(body);
if (!decoded.ok) throw new Error(decoded.error.message);
show('envelope', decoded.kind);
show('era', classifyInbound(decoded));
show(
  'HTTP route',
  routeHttpPost(decoded, { protocolVersionHeader: headers['MCP-Protocol-Version'] }),
);
const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
show(
  'header check',
  checkRequestHeaders((name) => lower.get(name.toLowerCase()), request, headerParams.params),
);
const params = parseParams(getWire(LATEST_VERSION), 'tools/call', request.params);
show('params valid', params.ok);

step('3. A proxy rewrote Mcp-Name: the server answers -32020 HeaderMismatch (HTTP 400)');
lower.set('mcp-name', 'delete_everything');
const mismatch = checkRequestHeaders(
  (name) => lower.get(name.toLowerCase()),
  request,
  headerParams.params,
);
show('header check', mismatch);

step('4. A client from the future asks for 2031-01-01: -32022 lists what the server speaks');
const future = createRequest(2, 'server/discover', {
  _meta: buildRequestMeta({ protocolVersion: '2031-01-01', clientCapabilities: {} }),
});
const futureEra = classifyInbound({ kind: 'request', message: future });
if (futureEra.era === 'modern' && !isSupportedVersion(futureEra.version)) {
  const error = new UnsupportedProtocolVersionError(SUPPORTED_VERSIONS, futureEra.version);
  show('response', createErrorResponse(future.id, error.toErrorObject()));
}

step(
  '5. A legacy client opens with initialize (asking for 2025-03-26, which twofold does not offer)',
);
const initialize = decodeMessage({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-03-26',
    capabilities: {},
    clientInfo: { name: 'old', version: '0.1' },
  },
});
if (!initialize.ok) throw new Error(initialize.error.message);
const inbound = classifyInbound(initialize);
show('era', inbound);
if (inbound.kind === 'initialize')
  show('negotiated version', selectLegacyVersion(inbound.requestedVersion));
show('initialize exists in 2026-07-28', getWire('2026-07-28').methods.has('initialize'));

step('6. A malformed modern request: no _meta at all');
const bad = parseParams(getWire(LATEST_VERSION), 'tools/list', {});
if (!bad.ok && bad.error instanceof ProtocolError) show('error', bad.error.toErrorObject());

step('7. A dual-era client probing an unknown stdio server');
show(
  'legacy server answered -32601',
  classifyStdioProbe(
    { type: 'error', error: { code: -32601, message: 'Method not found' } },
    { requested: LATEST_VERSION },
  ),
);
show(
  'server stayed silent',
  classifyStdioProbe({ type: 'timeout' }, { requested: LATEST_VERSION }),
);
console.log('\nDone: every message above was built, parsed and checked by @twofold/protocol.');
