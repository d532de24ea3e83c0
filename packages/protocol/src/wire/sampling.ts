/** Sampling (`sampling/createMessage`), deprecated in 2026-07-28 but still on the wire. */
import { z } from 'zod';
import { samplingContent, samplingMessage } from './content';
import type { WireFeatures } from './features';
import { JsonObject, Role, unitInterval } from './primitives';

export const ModelHint = z.looseObject({ name: z.string().optional() });
export const ModelPreferences = z.looseObject({
  hints: z.array(ModelHint).optional(),
  costPriority: unitInterval.optional(),
  speedPriority: unitInterval.optional(),
  intelligencePriority: unitInterval.optional(),
});
export const ToolChoice = z.looseObject({ mode: z.enum(['auto', 'required', 'none']).optional() });

export function createMessageFields(f: WireFeatures, tool: z.ZodType) {
  return {
    messages: z.array(samplingMessage(f)),
    maxTokens: z.number().int(),
    modelPreferences: ModelPreferences.optional(),
    systemPrompt: z.string().optional(),
    includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
    temperature: z.number().optional(),
    stopSequences: z.array(z.string()).optional(),
    metadata: JsonObject.optional(),
    ...(f.samplingTools
      ? { tools: z.array(tool).optional(), toolChoice: ToolChoice.optional() }
      : {}),
  };
}

export function createMessageResultFields(f: WireFeatures) {
  return {
    role: Role,
    content: samplingContent(f),
    model: z.string(),
    stopReason: z.string().optional(),
  };
}
