/**
 * The official `schema.json` of a revision from `../shared/spec` beside the repository, compiled
 * with Ajv. Where the files are absent, the tests that need them skip with a visible message.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SPEC_DIR = process.env.TWOFOLD_SPEC_DIR ?? join(repoRoot, '..', 'shared', 'spec');
export const specAvailable = existsSync(join(SPEC_DIR, '2026-07-28', 'schema.json'));
if (!specAvailable) {
  console.warn(`[spec] ${SPEC_DIR} not found: schema checks of served results are SKIPPED`);
}

const compiled = new Map<string, ValidateFunction>();
const instances = new Map<string, { ajv: Ajv; id: string; section: string }>();

/** Ajv errors of `value` against definition `name` of `revision`'s schema.json; empty if valid. */
export function schemaErrors(revision: string, name: string, value: unknown): string[] {
  let instance = instances.get(revision);
  if (instance === undefined) {
    const schema = JSON.parse(
      readFileSync(join(SPEC_DIR, revision, 'schema.json'), 'utf8'),
    ) as Record<string, unknown>;
    const draft2020 = '$defs' in schema;
    const ajv = draft2020
      ? new Ajv2020({ strict: false, allErrors: true })
      : new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const id = `urn:mcp:${revision}`;
    ajv.addSchema({ ...schema, $id: id });
    instance = { ajv, id, section: draft2020 ? '$defs' : 'definitions' };
    instances.set(revision, instance);
  }
  const key = `${revision}#${name}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = instance.ajv.compile({ $ref: `${instance.id}#/${instance.section}/${name}` });
    compiled.set(key, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${name}${e.instancePath || '/'} ${e.message}`);
}
