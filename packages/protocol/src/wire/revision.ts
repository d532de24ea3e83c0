/** A revision's wire: its method table and every named definition, built once on first use. */
import type { z } from 'zod';
import * as content from './content';
import {
  addMethodDefinitions,
  envelopeDefinitions,
  errorDefinitions,
  genericDefinitions,
  messageUnions,
  sharedDefinitions,
} from './definitions';
import * as elicitation from './elicitation';
import type { WireFeatures } from './features';
import { requestParams } from './messages';
import { buildInputRequest, type ZodMethod } from './method-spec';
import { buildMethodTable, elicitParams } from './method-table';
import type { WireOf } from './wire-types';

/** A revision's zod schemas, as written; the packages run the compiled ones. */
export type ZodWire = WireOf<z.ZodType>;

export function buildWire(version: string, f: WireFeatures): ZodWire {
  const table = buildMethodTable(f);
  const defs: Record<string, z.ZodType> = {
    ...sharedDefinitions(f),
    Tool: table.Tool,
    ContentBlock: table.ContentBlock,
    PromptMessage: table.PromptMessage,
    ...errorDefinitions(f),
    ...envelopeDefinitions(f),
  };
  const elicit = elicitParams(f);
  if (elicit) {
    defs.PrimitiveSchemaDefinition = elicitation.primitiveSchemaDefinition(f);
    defs.ElicitRequestFormParams = elicit.form;
    if (elicit.url) defs.ElicitRequestURLParams = elicit.url;
  }
  defs.SamplingMessage = content.samplingMessage(f);
  if (f.samplingTools) defs.SamplingMessageContentBlock = content.samplingContentBlock(f);
  for (const m of table.methods) addMethodDefinitions(defs, m, f);
  defs.PaginatedRequestParams = defs.ListToolsRequestParams as z.ZodType;
  defs.RequestParams = defs.PingRequestParams ?? (defs.DiscoverRequestParams as z.ZodType);

  const inputRequests = new Map<string, ZodMethod>();
  if (table.mrtr) {
    const { params, ...pieces } = table.mrtr;
    Object.assign(defs, pieces, { InputResponseRequestParams: requestParams(f, params, false) });
    for (const spec of table.clientFeatures) {
      const m = buildInputRequest(spec);
      inputRequests.set(m.method, m);
      addMethodDefinitions(defs, m, f, true);
    }
  }
  Object.assign(defs, messageUnions(table.methods, defs), genericDefinitions(f, defs));
  return {
    version,
    era: f.modern ? 'modern' : 'legacy',
    features: f,
    methods: new Map(table.methods.map((m) => [m.method, m])),
    inputRequests,
    definitions: defs,
  };
}
