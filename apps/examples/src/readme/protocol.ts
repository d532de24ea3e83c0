import {
  buildRequestMeta,
  createRequest,
  getWire,
  LATEST_VERSION,
  parseMessage,
  parseParams,
} from '@twofold/protocol/experimental';

// A client builds a modern request: no handshake, its version and capabilities ride along.
const request = createRequest(1, 'tools/call', {
  _meta: buildRequestMeta({ protocolVersion: LATEST_VERSION, clientCapabilities: {} }),
  name: 'get_weather',
  arguments: { city: 'Paris' },
});

// A server decodes the envelope and validates the params once, against the named revision.
const decoded = parseMessage(JSON.stringify(request));
if (decoded.ok && decoded.kind === 'request') {
  const params = parseParams(
    getWire(LATEST_VERSION),
    decoded.message.method,
    decoded.message.params,
  );
  console.log(params.ok ? `valid ${decoded.message.method}` : params.error.toErrorObject());
}
