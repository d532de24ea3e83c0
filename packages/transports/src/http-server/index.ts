/**
 * The Streamable HTTP server core (runtime-neutral): the web-standard handler, the one-peer
 * transport over it, and the in-memory event store for resumable legacy streams.
 */
export { InMemoryEventStore, type InMemoryEventStoreOptions } from './event-store';
export { createHttpHandler, type HttpServerHandler } from './handler';
export { HttpServerTransport, type HttpServerTransportOptions } from './transport';
export type {
  EventStore,
  HttpAccessControl,
  HttpExchange,
  HttpGrant,
  HttpHandler,
  HttpMessageContext,
  HttpRequestContext,
  HttpServerCoreOptions,
  LegacyHooks,
  LegacySession,
  ModernHandler,
} from './types';
