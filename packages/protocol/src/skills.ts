/**
 * `@twofold/protocol/skills`: reading the YAML frontmatter of a SKILL.md (the skills
 * extension). An entry of its own because the YAML parser is a third of the protocol's code:
 * a program that never reads a SKILL.md does not load it. Every export here is experimental.
 *
 * @example
 * ```ts
 * import { parseSkillFrontmatter } from '@twofold/protocol/skills';
 *
 * const parsed = parseSkillFrontmatter('---\nname: pdf\ndescription: Fill PDF forms\n---\nBody');
 * if (parsed.ok) console.log(parsed.frontmatter.name); // "pdf"
 * ```
 *
 * @packageDocumentation
 */
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { type SkillFrontmatter, skillsWire } from './skills-common';

export type { SkillFrontmatter } from './skills-common';

/**
 * What reading a SKILL.md's frontmatter gave: the object and the markdown after it, or why not.
 *
 * @experimental
 */
export type SkillFrontmatterResult =
  | { ok: true; frontmatter: SkillFrontmatter; body: string }
  | { ok: false; reason: string };

// A leading `---` line, the YAML, and a closing `---` line (a BOM before it is ignored).
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Reads the YAML frontmatter at the top of a SKILL.md. It must be an object with a non-empty
 * `name` and `description` (the Agent Skills minimum); other fields are kept as they are.
 *
 * @experimental
 */
export function parseSkillFrontmatter(text: string): SkillFrontmatterResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = FRONTMATTER.exec(source);
  if (!match) return { ok: false, reason: 'SKILL.md does not begin with a --- frontmatter block' };
  let value: unknown;
  try {
    // YAML 1.2 core types only: a date or a !!binary stays out of JSON frontmatter.
    value = loadYaml(match[1] as string, { schema: CORE_SCHEMA });
  } catch (error) {
    return { ok: false, reason: `frontmatter is not YAML: ${(error as Error).message}` };
  }
  const parsed = skillsWire.SkillFrontmatter.safeParse(value);
  if (!parsed.success) {
    return { ok: false, reason: 'frontmatter needs a non-empty string name and description' };
  }
  return { ok: true, frontmatter: parsed.data, body: source.slice(match[0].length) };
}
