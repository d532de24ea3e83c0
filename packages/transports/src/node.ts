/**
 * `@twofold/transports/node` (Node only): serve the Streamable HTTP server core (or any
 * web-standard handler) on `node:http`. Every export here is experimental.
 *
 * @packageDocumentation
 */
export {
  type NodeListenerOptions,
  type NodeRequestListener,
  toNodeListener,
} from './node/listener';
export { type ServedEndpoint, type ServeOptions, serve } from './node/serve';
