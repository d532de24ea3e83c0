/**
 * The servers the runtime clients tour, all on one loopback `node:http` origin (so that a
 * browser page served from it reaches every one without CORS): the twofold demo server at
 * `/twofold`, the official SDK 2.4.0 `createMcpHandler` at `/official` (modern, and stateless
 * legacy when the client pins it), and SDK 1.32.2's 2024-11-05 HTTP+SSE transport at `/sse`
 * (posting to `/messages`). Any other path goes to `extra` (the browser test's page and report).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer as SdkV1Server } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { toNodeListener } from '@twofold/transports/node';
import { z } from 'zod';
import {
  type LoopbackServer,
  listenLoopback,
  refuse,
  sseSessions,
} from '../../../../config/test-support/loopback-http.ts';
import { handler as demoHandler } from '../../servers/demo-server.js';

/** One tour the test asks a runtime to make (see `clients/tour.js`). */
export interface TourRun {
  url: string;
  sseUrl?: string;
  era?: 'modern' | 'legacy';
  grow?: boolean;
}

/** What `clients/tour.js` reports. */
export interface TourReport {
  era: string;
  protocolVersion: string;
  transport: string;
  sum?: string;
  heard?: string;
  grownListed?: boolean;
  closed?: boolean;
}

/** A tour with what it must report. */
export interface TourCase {
  name: string;
  run: TourRun;
  expected: Partial<TourReport>;
}

/** Every tour, with URLs relative to the peers' origin. */
export const TOUR_CASES: TourCase[] = [
  {
    name: 'twofold, modern, listen',
    run: { url: '/twofold', era: 'modern', grow: true },
    expected: {
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'streamable-http',
      heard: 'toolsListChanged',
    },
  },
  {
    name: 'twofold, legacy session, GET stream',
    run: { url: '/twofold', era: 'legacy', grow: true },
    expected: {
      era: 'legacy',
      protocolVersion: '2025-11-25',
      transport: 'streamable-http',
      heard: 'toolsListChanged',
    },
  },
  {
    name: 'official 2.4.0, detected modern',
    run: { url: '/official' },
    expected: { era: 'modern', protocolVersion: '2026-07-28', transport: 'streamable-http' },
  },
  {
    name: 'official 2.4.0, legacy pinned',
    run: { url: '/official', era: 'legacy' },
    expected: { era: 'legacy', protocolVersion: '2025-11-25', transport: 'streamable-http' },
  },
  {
    name: 'SDK 1.32.2 HTTP+SSE, detected by fallback',
    run: { url: '/sse', sseUrl: '/sse' },
    expected: { era: 'legacy', protocolVersion: '2025-11-25', transport: 'http+sse' },
  },
];

/** Checks one report against its case: the common facts, then the case's own. */
export function expectedReport(tourCase: TourCase): TourReport {
  const grew = tourCase.run.grow ? { grownListed: true } : {};
  return { sum: '5', closed: true, ...grew, ...tourCase.expected } as TourReport;
}

/** Makes a run's URLs absolute on `origin`. */
export function absoluteRun(run: TourRun, origin: string): TourRun {
  const sseUrl = run.sseUrl === undefined ? {} : { sseUrl: new URL(run.sseUrl, origin).href };
  return { ...run, url: new URL(run.url, origin).href, ...sseUrl };
}

const numbers = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } };

function officialServer(): McpServer {
  const server = new McpServer({ name: 'official-peer', version: '2.4.0' });
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: fromJsonSchema({ ...numbers, required: ['a', 'b'] }),
    },
    async (args) => {
      const { a, b } = args as { a: number; b: number };
      return { content: [{ type: 'text', text: String(a + b) }] };
    },
  );
  return server;
}

function sdkV1Server(): SdkV1Server {
  const server = new SdkV1Server({ name: 'sdk-v1-peer', version: '1.32.2' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return server;
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Answers a path no peer serves. */
export const noSuchPath: NodeHandler = (_req, res) => refuse(res, 404, 'no such path');

/** Starts the peers on one loopback origin; `extra` answers every other path. */
export async function startPeers(
  extra: NodeHandler = noSuchPath,
): Promise<LoopbackServer & { origin: string }> {
  const official = createMcpHandler(() => officialServer(), { legacy: 'stateless' });
  const sse = sseSessions(
    SSEServerTransport,
    (transport) => sdkV1Server().connect(transport),
    '/sse',
  );
  const twofold = toNodeListener(demoHandler);
  const officialListener = toNodeListener(official.fetch);
  const loopback = await listenLoopback(
    async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path === '/twofold') return twofold(req, res);
      if (path === '/official') return officialListener(req, res);
      if (path === '/sse' || path === '/messages') return sse.handler(req, res);
      return extra(req, res);
    },
    async () => {
      await sse.shutdown();
      await official.close();
    },
  );
  return { ...loopback, origin: loopback.url.origin };
}
