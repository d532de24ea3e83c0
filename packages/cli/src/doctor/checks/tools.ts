/**
 * `tool-names` (the spec's name rule, uniqueness) and `tool-header-annotations` (`x-mcp-header`
 * annotations an HTTP client must accept, checked with `collectHeaderParams` from protocol).
 * Both read the raw tool list, so a tool `McpClient` would leave out is still seen.
 */
import {
  collectHeaderParams,
  isRecord,
  MCP_PARAM_HEADER_PREFIX,
} from '@twofold/protocol/experimental';
import type { DoctorContext } from '../context';
import { SPEC } from '../spec-refs';
import { advertisedLists, firstPass } from '../survey';
import { listOf, messageOf } from '../util';
import {
  type CheckDefinition,
  type CheckOutcome,
  Findings,
  notConnected,
  notModern,
  skip,
} from './define';

/** The name rule of 2026-07-28: 1 to 128 of A-Z, a-z, 0-9, `_`, `-`, `.`. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

type Tools = { tools: Record<string, unknown>[]; problem?: string };

async function toolsOf(context: DoctorContext): Promise<Tools | CheckOutcome> {
  if (!context.client) return notConnected(context);
  if (!(await advertisedLists(context)).includes('tools/list')) {
    return skip('the server advertises no tools capability');
  }
  const pass = await firstPass(context, 'tools/list');
  const tools = pass.items.filter(isRecord);
  return pass.stopped ? { tools, problem: pass.stopped } : { tools };
}

export const toolNames: CheckDefinition = {
  id: 'tool-names',
  title: 'Tool names',
  spec: SPEC.toolNames,
  async run(context) {
    const listed = await toolsOf(context);
    if ('status' in listed) return listed;
    const findings = new Findings();
    if (listed.problem) findings.fail(`the tool list is incomplete: ${listed.problem}`);
    const names: string[] = [];
    for (const tool of listed.tools) {
      if (typeof tool.name !== 'string') {
        findings.fail(`a tool has no string name: ${JSON.stringify(tool).slice(0, 120)}`);
        continue;
      }
      names.push(tool.name);
    }
    const bad = names.filter((name) => !TOOL_NAME.test(name));
    if (bad.length > 0) {
      findings.warn(
        `name(s) outside the rule (1–128 of A-Z a-z 0-9 _ - .): ${listOf(bad.map((n) => JSON.stringify(n)))}`,
      );
    }
    const duplicates = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
    if (duplicates.length > 0)
      findings.warn(`name(s) used by more than one tool: ${listOf(duplicates)}`);
    if (names.length === 0 && !listed.problem) findings.note('the server lists no tools');
    else if (bad.length === 0 && duplicates.length === 0) {
      findings.note(`${names.length} tool name(s), all valid and unique`);
    }
    return findings.outcome();
  },
};

export const toolHeaderAnnotations: CheckDefinition = {
  id: 'tool-header-annotations',
  title: 'x-mcp-header annotations',
  spec: SPEC.xMcpHeader,
  async run(context) {
    const notApplicable = notModern(context);
    if (notApplicable) return notApplicable;
    const listed = await toolsOf(context);
    if ('status' in listed) return listed;
    const findings = new Findings();
    if (listed.problem) findings.fail(`the tool list is incomplete: ${listed.problem}`);
    const annotated: string[] = [];
    for (const tool of listed.tools) {
      const name = typeof tool.name === 'string' ? tool.name : '(unnamed)';
      const collected = collectHeaderParams(tool.inputSchema);
      if (!collected.ok) {
        findings.fail(
          `tool ${JSON.stringify(name)}: ${listOf(collected.errors, 3)} (an HTTP client MUST drop this tool)`,
        );
      } else if (collected.params.length > 0) {
        const headers = collected.params.map((p) => `${MCP_PARAM_HEADER_PREFIX}${p.header}`);
        annotated.push(`${name} (${headers.join(', ')})`);
      }
    }
    findings.note(
      annotated.length > 0
        ? `valid annotations on ${annotated.length} tool(s): ${listOf(annotated, 5)}`
        : 'no tool carries a valid x-mcp-header annotation',
    );
    await listThroughClient(context, findings);
    const dropped = context.clientWarnings.filter(
      (w) => w.code === 'invalid-tool-header-annotations',
    );
    if (dropped.length > 0)
      findings.note(
        `McpClient left out: ${listOf(
          dropped.map((w) => w.message),
          3,
        )}`,
      );
    return findings.outcome();
  },
};

/** Lists the tools through `McpClient` too, which drops (with a warning) what it must drop. */
async function listThroughClient(context: DoctorContext, findings: Findings): Promise<void> {
  const client = context.client;
  if (!client) return;
  try {
    for await (const _ of client.iterateTools({ cache: 'bypass', timeoutMs: context.timeoutMs })) {
      // Listing is what fills the client's warnings.
    }
  } catch (error) {
    findings.warn(`McpClient could not list the tools: ${messageOf(error)}`);
  }
}
