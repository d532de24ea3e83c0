/**
 * What the client knows about a server's tools: their `x-mcp-header` parameters (mirrored as
 * HTTP headers on modern calls) and their output schemas (checked against structured results).
 */
import { type OutputUnit, Validator } from '@cfworker/json-schema';
import {
  collectHeaderParams,
  LocalError,
  LocalErrorCode,
  type McpHeaderParam,
  type Tool,
} from '@twofold/protocol/experimental';
import { messageOf } from '../util';

/**
 * Outcome of {@link ToolCatalog.accept}: the usable tools, and those left out with the reasons.
 */
export interface AcceptedTools {
  tools: Tool[];
  excluded: { name: string; errors: string[] }[];
}

/**
 * Outcome of {@link ToolCatalog.validateOutput}.
 */
export type OutputCheck = { ok: true } | { ok: false; errors: string[] };

interface Entry {
  tool: Tool;
  headerParams: readonly McpHeaderParam[];
  /** Compiled on first use; `Error` when the schema cannot be compiled. */
  validator?: Validator | Error;
}

/**
 * The tools seen in `tools/list` results, by name. A tool whose `x-mcp-header` annotations are
 * invalid is excluded (the spec requires clients to reject such tools), never stored.
 */
export class ToolCatalog {
  readonly #entries = new Map<string, Entry>();

  /**
   * Stores every tool of a page whose header annotations are valid; a later one wins a name.
   * `checkHeaders: false` (legacy servers, which never see `Mcp-Param-*` headers) keeps every
   * tool.
   */
  accept(tools: readonly Tool[], checkHeaders = true): AcceptedTools {
    const accepted: Tool[] = [];
    const excluded: AcceptedTools['excluded'] = [];
    for (const tool of tools) {
      const collected = checkHeaders
        ? collectHeaderParams(tool.inputSchema)
        : { ok: true as const, params: [] };
      if (!collected.ok) {
        this.#entries.delete(tool.name);
        excluded.push({ name: tool.name, errors: collected.errors });
        continue;
      }
      this.#entries.set(tool.name, { tool, headerParams: collected.params });
      accepted.push(tool);
    }
    return { tools: accepted, excluded };
  }

  /** Forgets every tool (after `notifications/tools/list_changed`, say). */
  clear(): void {
    this.#entries.clear();
  }

  /** The stored tool, if any. */
  get(name: string): Tool | undefined {
    return this.#entries.get(name)?.tool;
  }

  /** The tool's `x-mcp-header` parameters; `undefined` for a tool not seen. */
  headerParams(name: string): readonly McpHeaderParam[] | undefined {
    return this.#entries.get(name)?.headerParams;
  }

  /**
   * Checks `structuredContent` against the tool's `outputSchema` (JSON Schema 2020-12). A tool
   * not seen, or one without an output schema, passes. With a schema, missing structured
   * content fails, and so does a schema that cannot be compiled or used.
   */
  validateOutput(name: string, structuredContent: unknown): OutputCheck {
    const entry = this.#entries.get(name);
    const schema = entry?.tool.outputSchema;
    if (entry === undefined || schema === undefined) return { ok: true };
    if (structuredContent === undefined) {
      return {
        ok: false,
        errors: [
          `tool ${JSON.stringify(name)} declares an outputSchema but returned no structuredContent`,
        ],
      };
    }
    entry.validator ??= compile(schema);
    if (entry.validator instanceof Error) {
      return { ok: false, errors: [`outputSchema cannot be used: ${entry.validator.message}`] };
    }
    let result: ReturnType<Validator['validate']>;
    try {
      result = entry.validator.validate(structuredContent);
    } catch (error) {
      // e.g. a `$ref` that does not resolve inside the schema.
      return { ok: false, errors: [`outputSchema cannot be used: ${firstLineOf(error)}`] };
    }
    return result.valid ? { ok: true } : { ok: false, errors: describe(result.errors) };
  }

  /** Throws `INVALID_RESULT` when a successful call result breaks the tool's `outputSchema`. */
  assertOutput(name: string, result: { isError?: boolean; structuredContent?: unknown }): void {
    if (result.isError === true) return;
    const check = this.validateOutput(name, result.structuredContent);
    if (check.ok) return;
    throw new LocalError(
      LocalErrorCode.InvalidResult,
      `tool ${JSON.stringify(name)} returned structuredContent that does not match its outputSchema`,
      { details: { tool: name, errors: check.errors } },
    );
  }
}

function compile(schema: object): Validator | Error {
  try {
    return new Validator(schema, '2020-12', false);
  } catch (error) {
    return new Error(firstLineOf(error));
  }
}

// First line only: the validator appends a list of every schema it knows.
function firstLineOf(error: unknown): string {
  const text = messageOf(error);
  return text.split('\n', 1)[0] ?? text;
}

// Leaf errors only: an error whose keyword location has deeper errors below it just says "a
// subschema failed".
function describe(errors: readonly OutputUnit[]): string[] {
  const out: string[] = [];
  for (const error of errors) {
    const below = `${error.keywordLocation}/`;
    if (errors.some((other) => other.keywordLocation.startsWith(below))) continue;
    const at = error.instanceLocation === '#' ? '' : `${error.instanceLocation}: `;
    const text = `${at}${error.error}`;
    if (!out.includes(text)) out.push(text);
  }
  return out.length > 0 ? out : ['structuredContent does not match the outputSchema'];
}
