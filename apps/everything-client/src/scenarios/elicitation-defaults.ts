/**
 * `elicitation-sep1034-client-defaults`: the server elicits a form whose fields all have
 * defaults; the client answers as a person accepting the form as pre-filled, so every default
 * reaches the server (SEP-1034).
 */
import type { ElicitRequestParams, ElicitResult } from '@twofold/protocol/experimental';
import { type ScenarioRun, textOf, withClient } from '../run';

const TOOL = 'test_client_elicitation_defaults';

type FieldValue = string | number | boolean | string[];

export async function elicitationDefaults(run: ScenarioRun): Promise<void> {
  const handlers = { elicitation: async (params: ElicitRequestParams) => acceptDefaults(params) };
  await withClient(run, { handlers }, async (client) => {
    const { tools } = await client.listTools();
    if (!tools.some((tool) => tool.name === TOOL)) throw new Error(`the server has no ${TOOL}`);
    run.log(`${TOOL}: ${textOf(await client.callTool(TOOL, {}))}`);
  });
}

/** Accepts a form with each field's `default`; a URL elicitation is declined. */
export function acceptDefaults(params: ElicitRequestParams): ElicitResult {
  if (params.mode === 'url') return { action: 'decline' };
  const content: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(params.requestedSchema.properties)) {
    if (isFieldValue(field.default)) content[name] = field.default;
  }
  return { action: 'accept', content };
}

function isFieldValue(value: unknown): value is FieldValue {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
