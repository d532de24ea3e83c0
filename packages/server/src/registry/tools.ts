/**
 * A tool as the registry keeps it: its wire description and compiled schemas, built once at
 * registration, and its handler.
 */
import {
  collectHeaderParams,
  type McpHeaderParam,
  type Tool,
} from '@twofold/protocol/experimental';
import type { TaskSupport, ToolDefinition } from '../api';
import { compileSchema, compileToolInputSchema } from '../schema/compile';
import type { CompiledSchema } from '../schema/types';
import { checkIcons, checkName, checkScopes } from './checks';
import { pickDefined } from './wire-fields';

/** A registered tool. */
export interface ToolEntry {
  /** The `tools/list` item (frozen, shared by every list result). */
  readonly tool: Readonly<Tool>;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  /** Parameters mirrored into `Mcp-Param-*` headers on HTTP. */
  readonly headerParams: readonly McpHeaderParam[];
  /** Scopes an HTTP caller's token needs to call it (checked by the HTTP handler's `auth`). */
  readonly requiredScopes: readonly string[];
  readonly handler: ToolDefinition<never>['handler'];
  /** How it runs as a task (the tasks extension); `undefined`: never. */
  readonly taskSupport: TaskSupport | undefined;
  readonly beforeTask: ToolDefinition<never>['beforeTask'];
}

const TASK_SUPPORT: readonly unknown[] = ['optional', 'required'];

/** Checks a tool definition and compiles its schemas; throws a `TypeError` when unusable. */
export function createToolEntry(definition: ToolDefinition<never>): ToolEntry {
  checkName('Tool', definition.name);
  const label = `Tool "${definition.name}"`;
  if (typeof definition.handler !== 'function') {
    throw new TypeError(`${label}: handler must be a function`);
  }
  checkIcons(label, definition.icons);
  const { taskSupport, beforeTask } = definition;
  if (taskSupport !== undefined && !TASK_SUPPORT.includes(taskSupport)) {
    throw new TypeError(`${label}: taskSupport must be "optional" or "required"`);
  }
  if (beforeTask !== undefined && (typeof beforeTask !== 'function' || taskSupport === undefined)) {
    throw new TypeError(`${label}: beforeTask must be a function, given with taskSupport`);
  }
  const requiredScopes = checkScopes(label, definition.requiredScopes);
  const input = compileToolInputSchema(definition.inputSchema, `${label} inputSchema`);
  const output =
    definition.outputSchema === undefined
      ? undefined
      : compileSchema(definition.outputSchema, 'output', `${label} outputSchema`);
  const headers = collectHeaderParams(input.jsonSchema);
  if (!headers.ok) {
    throw new TypeError(`${label}: invalid x-mcp-header annotations: ${headers.errors.join('; ')}`);
  }
  // The compiled schemas are checked JSON Schema objects; the wire type cannot know that.
  const tool = {
    name: definition.name,
    ...pickDefined(definition, ['title', 'description']),
    inputSchema: input.jsonSchema,
    ...(output === undefined ? {} : { outputSchema: output.jsonSchema }),
    ...pickDefined(definition, ['annotations', 'icons', '_meta']),
  } as Tool;
  return {
    tool: Object.freeze(tool),
    input,
    output,
    headerParams: Object.freeze(headers.params),
    requiredScopes,
    handler: definition.handler,
    taskSupport,
    beforeTask,
  };
}
