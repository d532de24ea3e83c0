/**
 * The engine of `twofold bridge`: publish a server of either era in the other's form. A stdio
 * server (legacy or modern) becomes a dual-era Streamable HTTP endpoint on loopback
 * (`startHttpBridge`), and any server reachable over HTTP becomes a stdio server for hosts
 * that only spawn processes (`startStdioBridge`). Requests, progress, cancellation, logging,
 * input rounds and change notifications cross, translated between eras where they differ, and
 * W3C trace context is carried through.
 *
 * @experimental
 * @packageDocumentation
 */
export { startHttpBridge } from './http-bridge';
export { startStdioBridge } from './stdio-bridge';
export type {
  BridgeEnd,
  BridgeInstrumentation,
  BridgeLogEntry,
  BridgeUpstreamOptions,
  HttpBridge,
  HttpBridgeOptions,
  RunningBridge,
  StdioBridge,
  StdioBridgeOptions,
} from './types';
