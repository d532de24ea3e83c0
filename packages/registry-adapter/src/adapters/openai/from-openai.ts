/**
 * OpenAI function definitions plus their implementations as host tools (for example to publish
 * an application's existing function-calling tools as an MCP server).
 */
import type { CallToolResult } from '@twofold/protocol/experimental';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import type { FunctionDefinition } from 'openai/resources/shared';
import type { HostTool, InvokeContext, JsonSchema } from '../../registry/types';
import { convertSchema } from '../../schema/convert';
import { isAbortOf } from '../shared/invoke';
import { errorMessage, errorResult, valueToResult } from '../shared/results';

/**
 * A function tool in any of OpenAI's shapes: Chat Completions (`{ type, function }`), Responses
 * (`{ type, name, parameters, strict }`) or a bare `FunctionDefinition`.
 *
 * @experimental
 */
export type OpenAiFunctionDefinition =
  | ChatCompletionFunctionTool
  | FunctionTool
  | FunctionDefinition;

/**
 * The code behind one function: gets the parsed arguments and the call's signal; returns a
 * string (text), an MCP `CallToolResult` (as it is) or any JSON value (JSON text, and
 * `structuredContent` for an object). A throw becomes an `isError` result.
 *
 * @experimental
 */
export type OpenAiFunctionImplementation = (
  args: Record<string, unknown>,
  context: { signal: AbortSignal },
) => unknown;

/**
 * Host tools from OpenAI function definitions and their implementations (keyed by function
 * name), in the definitions' order. `parameters` become the input schema as they are (none: an
 * object without properties); arguments are checked against it before the implementation runs
 * (failures are `isError` results naming the issues). A definition without an implementation
 * throws a `TypeError` naming it; implementations without a definition are ignored.
 *
 * @experimental
 */
export function fromOpenAiTools(
  definitions: readonly OpenAiFunctionDefinition[],
  implementations: Readonly<Record<string, OpenAiFunctionImplementation>>,
): HostTool[] {
  return definitions.map((definition) => {
    const fn = 'function' in definition ? definition.function : definition;
    const implementation = Object.hasOwn(implementations, fn.name)
      ? implementations[fn.name]
      : undefined;
    if (!implementation) {
      throw new TypeError(`no implementation given for OpenAI function "${fn.name}"`);
    }
    const inputSchema: JsonSchema = fn.parameters ?? { type: 'object', properties: {} };
    const { validate } = convertSchema(inputSchema, 'input', fn.name);
    const invoke = async (
      args: Record<string, unknown>,
      context: InvokeContext,
    ): Promise<CallToolResult> => {
      const checked = await validate(args);
      if (!checked.ok) {
        return errorResult(`invalid arguments for tool "${fn.name}": ${checked.issues.join('; ')}`);
      }
      try {
        const value = await implementation(checked.value as Record<string, unknown>, {
          signal: context.signal,
        });
        return valueToResult(value);
      } catch (error) {
        if (isAbortOf(error, context.signal)) throw error;
        return errorResult(errorMessage(error));
      }
    };
    return {
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      inputSchema,
      invoke,
    };
  });
}
