/**
 * The SKILL.md reader, imported lazily by `SkillsClient.load` so that a client that never loads
 * a skill never loads the YAML parser. A relative module rather than a dynamic import of
 * `@twofold/protocol/skills`, so that a CommonJS build stays on CommonJS modules.
 */
export { parseSkillFrontmatter } from '@twofold/protocol/skills';
