/**
 * Host tools from plain functions with zod, Standard Schema or JSON Schema inputs: the schema is
 * converted once, arguments are validated with the original schema, and what the conversion
 * lost is reported.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { CallToolResult, ToolAnnotations } from '@twofold/protocol/experimental';
import type { HostTool, InputRequiredOutcome, InvokeContext, ToolOutcome } from '../registry/types';
import { type ConvertedSchema, convertSchema } from '../schema/convert';
import type { SchemaLoss } from '../schema/reports';
import type { ConversionReport } from './report';
import { annotationsFor, type ToolSemantics } from './semantics';

/**
 * What a tool function may return: a full `CallToolResult` (an object with a `content` array),
 * a string (one text block), an `InputRequiredOutcome`, or — when the tool has an `output`
 * schema — the structured value itself (checked against that schema; a value that itself has a
 * `content` array must be wrapped as `{ content: [], structuredContent: value }`). Without an
 * `output` schema any other value is sent as its JSON text.
 *
 * @experimental
 */
export type FunctionToolReturn = CallToolResult | InputRequiredOutcome | string | object;

/**
 * A tool written as a function.
 *
 * @experimental
 */
export interface FunctionToolDefinition<Args = Record<string, unknown>> {
  name: string;
  title?: string;
  description?: string;
  /** zod 4 schema (or raw shape), Standard Schema with JSON Schema output, or JSON Schema. */
  input?: unknown;
  /** Schema of the structured result, of the same kinds as `input`. */
  output?: unknown;
  /** Declared semantics; annotations are derived from them. */
  semantics?: ToolSemantics;
  /** Explicit annotations; each field wins over the derived one. */
  annotations?: ToolAnnotations;
  /** Runs the tool with validated arguments (zod defaults and transforms applied). */
  run(args: Args, context: InvokeContext): FunctionToolReturn | Promise<FunctionToolReturn>;
}

// A tool without parameters: the shape the MCP spec recommends.
const NO_ARGUMENTS = { type: 'object', additionalProperties: false };

const conversionLosses = new WeakMap<HostTool, readonly SchemaLoss[]>();

/** The conversion losses of a tool built by `defineTool` (empty for any other tool). */
export function lossesOf(tool: HostTool): readonly SchemaLoss[] {
  return conversionLosses.get(tool) ?? [];
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isInputRequired(value: unknown): value is InputRequiredOutcome {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
  );
}

function isCallToolResult(value: object): value is CallToolResult {
  return Array.isArray((value as { content?: unknown }).content);
}

function prefixed(losses: readonly SchemaLoss[], field: string): SchemaLoss[] {
  return losses.map((loss) => ({ path: `/${field}${loss.path}`, what: loss.what }));
}

/** Turns what `run` returned into an outcome, holding structured values to `output`. */
async function toOutcome(
  returned: FunctionToolReturn,
  output: ConvertedSchema | undefined,
  name: string,
): Promise<ToolOutcome> {
  if (typeof returned === 'string') return { content: [{ type: 'text', text: returned }] };
  if (isInputRequired(returned)) return returned;
  const result: CallToolResult =
    typeof returned === 'object' && returned !== null && isCallToolResult(returned)
      ? returned
      : output === undefined
        ? { content: [{ type: 'text', text: JSON.stringify(returned) ?? 'null' }] }
        : { content: [], structuredContent: returned as CallToolResult['structuredContent'] };
  if (output === undefined || result.isError === true) return result;
  if (result.structuredContent === undefined) {
    return errorResult(`Tool ${name} has an output schema but returned no structured value`);
  }
  const checked = await output.validate(result.structuredContent);
  if (!checked.ok) {
    return errorResult(
      `Tool ${name} returned a value that does not match its output schema: ${checked.issues.join('; ')}`,
    );
  }
  const structured = checked.value as CallToolResult['structuredContent'];
  const content = result.content.length > 0 ? result.content : [];
  return {
    ...result,
    content:
      content.length > 0 ? content : [{ type: 'text', text: JSON.stringify(structured) ?? '' }],
    structuredContent: structured,
  };
}

/**
 * Builds a `HostTool` from a function. Schemas are converted once, here (a `TypeError` for an
 * unusable one, or an input schema whose root is not `type: "object"`); `report` lists what the
 * JSON Schemas cannot say (zod refines, transforms, dates…), with paths into the tool
 * definition. `invoke` validates the arguments with the original schema (invalid ones give an
 * `isError` result naming the issues), runs the function, and turns a thrown error into an
 * `isError` result — unless the call was aborted, which rejects.
 *
 * @experimental
 */
export function defineTool<Schema extends StandardSchemaV1>(
  definition: Omit<FunctionToolDefinition<StandardSchemaV1.InferOutput<Schema>>, 'input'> & {
    input: Schema;
  },
): { tool: HostTool; report: ConversionReport };
export function defineTool<Args = Record<string, unknown>>(
  definition: FunctionToolDefinition<Args>,
): { tool: HostTool; report: ConversionReport };
export function defineTool<Args>(definition: FunctionToolDefinition<Args>): {
  tool: HostTool;
  report: ConversionReport;
} {
  const { name } = definition;
  if (typeof name !== 'string' || name === '') {
    throw new TypeError('defineTool: name must be a non-empty string');
  }
  if (typeof definition.run !== 'function') {
    throw new TypeError(`Tool "${name}": run must be a function`);
  }
  const input = convertSchema(definition.input ?? NO_ARGUMENTS, 'input', `Tool "${name}" input`);
  if (input.jsonSchema.type !== 'object') {
    throw new TypeError(`Tool "${name}": the input schema's root must be "type": "object"`);
  }
  const output =
    definition.output === undefined
      ? undefined
      : convertSchema(definition.output, 'output', `Tool "${name}" output`);
  const losses = [
    ...prefixed(input.losses, 'inputSchema'),
    ...prefixed(output?.losses ?? [], 'outputSchema'),
  ];
  const annotations = annotationsFor(definition.semantics, definition.annotations);
  const run = definition.run;
  const tool: HostTool = {
    name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...(definition.description === undefined ? {} : { description: definition.description }),
    inputSchema: input.jsonSchema,
    ...(output === undefined ? {} : { outputSchema: output.jsonSchema }),
    ...(annotations === undefined ? {} : { annotations }),
    invoke: async (args, context) => {
      const checked = await input.validate(args ?? {});
      if (!checked.ok) {
        return errorResult(`Invalid arguments for tool ${name}: ${checked.issues.join('; ')}`);
      }
      let returned: FunctionToolReturn;
      try {
        returned = await run(checked.value as Args, context);
      } catch (error) {
        if (context.signal.aborted) throw error;
        return errorResult(error instanceof Error ? error.message : String(error));
      }
      return toOutcome(returned, output, name);
    },
  };
  Object.freeze(tool);
  conversionLosses.set(tool, Object.freeze(losses));
  return { tool, report: { tools: [{ name, losses }] } };
}
