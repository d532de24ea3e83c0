/**
 * `@twofold/server/skills`: {@link defineSkill} reads a skill's SKILL.md (YAML frontmatter) and
 * checks it, ready for `McpServer.registerSkill`. An entry of its own so that a server without
 * skills never loads the YAML parser. Every export here is experimental.
 *
 * @example
 * ```ts
 * import { McpServer } from '@twofold/server/experimental';
 * import { defineSkill } from '@twofold/server/skills';
 *
 * const server = new McpServer({ name: 'docs', version: '1.0.0' });
 * server.registerSkill(
 *   defineSkill({ skillMd: '---\nname: pdf\ndescription: Fill PDF forms\n---\nUse the form tool.\n' }),
 * );
 * ```
 *
 * @packageDocumentation
 */
export { defineSkill, type SkillDefinition } from './skills/definition';
export type { Skill, SkillFileSource } from './skills/skill';
