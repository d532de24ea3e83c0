/**
 * Micro-benchmark of the wire layer: parse (JSON text → object) and validate typical messages,
 * twofold against `@modelcontextprotocol/core` 2.4.0 doing the same work. The official path
 * validates the JSON-RPC envelope with `JSONRPCMessageSchema` and then the method's schema;
 * twofold decodes the envelope by hand and validates the method's params or result once.
 */
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  JSONRPCMessageSchema,
  ListToolsResultSchema,
} from '@modelcontextprotocol/core';
import { decodeMessage, getWire, parseParams, parseResult } from '@twofold/protocol/experimental';
import { largeTextResult, toolsCallRequest, toolsListResult } from './fixtures';
import { type Contender, compare, table } from './harness';

const wire = getWire('2026-07-28');

function twofoldRequest(text: string): Contender['run'] {
  return () => {
    const decoded = decodeMessage(JSON.parse(text));
    if (!decoded.ok || decoded.kind !== 'request') throw new Error('bench: not a request');
    const parsed = parseParams(wire, decoded.message.method, decoded.message.params);
    if (!parsed.ok) throw parsed.error;
    return parsed.value;
  };
}

function twofoldResult(text: string, method: string): Contender['run'] {
  return () => {
    const decoded = decodeMessage(JSON.parse(text));
    if (!decoded.ok || decoded.kind !== 'result') throw new Error('bench: not a result');
    const parsed = parseResult(wire, method, decoded.message.result);
    if (!parsed.ok) throw parsed.error;
    return parsed.value;
  };
}

function officialRequest(text: string): Contender['run'] {
  return () => CallToolRequestSchema.parse(JSONRPCMessageSchema.parse(JSON.parse(text)));
}

function officialResult(
  text: string,
  schema: { parse: (v: unknown) => unknown },
): Contender['run'] {
  return () => {
    const message = JSONRPCMessageSchema.parse(JSON.parse(text)) as { result: unknown };
    return schema.parse(message.result);
  };
}

const floor =
  (text: string): Contender['run'] =>
  () =>
    JSON.parse(text);

/** Runs the wire-layer cases and returns a Markdown table; `quick` takes fewer, shorter turns. */
export function runProtocolMicro(quick: boolean): string {
  const options = quick ? { rounds: 3, turnMs: 150 } : { rounds: 11, turnMs: 500 };
  const cases = [
    {
      case: 'tools/call request',
      contenders: [
        { name: 'twofold', run: twofoldRequest(toolsCallRequest) },
        { name: 'official core 2.4.0', run: officialRequest(toolsCallRequest) },
        { name: 'floor (JSON.parse only)', run: floor(toolsCallRequest) },
      ],
    },
    {
      case: 'tools/list result, 100 tools',
      contenders: [
        { name: 'twofold', run: twofoldResult(toolsListResult, 'tools/list') },
        {
          name: 'official core 2.4.0',
          run: officialResult(toolsListResult, ListToolsResultSchema),
        },
        { name: 'floor (JSON.parse only)', run: floor(toolsListResult) },
      ],
    },
    {
      case: 'tools/call result, 1 MiB text',
      contenders: [
        { name: 'twofold', run: twofoldResult(largeTextResult, 'tools/call') },
        { name: 'official core 2.4.0', run: officialResult(largeTextResult, CallToolResultSchema) },
        { name: 'floor (JSON.parse only)', run: floor(largeTextResult) },
      ],
    },
  ];
  // Every contender must accept its input before anything is timed.
  for (const c of cases) for (const contender of c.contenders) contender.run();
  const rows = cases.map((c) => ({
    case: c.case,
    results: compare(c.contenders, options),
    baseline: 'official core 2.4.0',
  }));
  return table(rows);
}
