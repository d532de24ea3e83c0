/**
 * A skill ready to serve: what `defineSkill` (`@twofold/server/skills`) makes of a definition
 * once its SKILL.md is read and checked, and what `McpServer.registerSkill` takes.
 */
import type { SkillFrontmatter } from '@twofold/protocol/experimental';

/**
 * One file a skill serves.
 *
 * @experimental
 */
export interface SkillFileSource {
  readonly uri: string;
  /** Its path inside the skill (`SKILL.md`, `references/FORMS.md`). */
  readonly path: string;
  readonly mimeType: string;
  readonly content: string | Uint8Array;
  readonly bytes: Uint8Array;
}

/**
 * A checked skill: its name, frontmatter, root URI and files (SKILL.md first). Made by
 * `defineSkill` from `@twofold/server/skills`.
 *
 * @experimental
 */
export interface Skill {
  readonly name: string;
  readonly frontmatter: SkillFrontmatter;
  /** The skill directory's URI (`skill://pdf-processing`); the SKILL.md is `${root}/SKILL.md`. */
  readonly root: string;
  readonly files: readonly SkillFileSource[];
}
