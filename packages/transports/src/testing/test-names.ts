/**
 * The names of the contract tests, in the order they run. Names are stable: `skip` lists refer
 * to them.
 *
 * @experimental
 */
export const TRANSPORT_CONTRACT_TESTS = [
  'enforces the start() rules',
  'delivers messages in send order',
  'delivers pipelined sends in order',
  'answers concurrent requests with string and numeric ids',
  'round-trips large messages',
  'round-trips UTF-8 text exactly',
  'delivers request-related notifications before the response',
  'closes from the client side',
  'propagates a client close to the server',
  'closes from the server side',
  'makes close() idempotent',
  'reports unserialisable values without breaking the connection',
  'reports invalid envelopes without delivering them',
  'delivers nothing after close',
] as const;
