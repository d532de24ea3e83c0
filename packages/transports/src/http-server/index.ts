/**
 * The Streamable HTTP server core (runtime-neutral): the web-standard handler, the one-peer
 * transport over it, and the in-memory event store for resumable legacy streams.
 */
export { InMemoryEventStore, type InMemoryEventStoreOptions } from './event-store';
export { guardHandler, type HandlerCheck } from './guard-handler';
export { createHttpHandler, type HttpServerHandler } from './handler';
export type { BodyLimits, BodyShortfall, IncomingRequest } from './incoming';
export { type Answer, Reply } from './responses';
export { HttpServerTransport, type HttpServerTransportOptions } from './transport';
export type {
  AnsweringHandler,
  CoreHandler,
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
