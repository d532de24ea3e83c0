/**
 * A skill as the author writes it (its SKILL.md and supporting files), checked once and
 * resolved into the files it serves: their URIs, MIME types and bytes.
 */
import {
  isSkillName,
  SKILL_LIMITS,
  SKILL_MANIFEST,
  SKILL_URI_SCHEME,
  skillFileBytes,
} from '@twofold/protocol/experimental';
import { parseSkillFrontmatter } from '@twofold/protocol/skills';
import type { Skill, SkillFileSource } from './skill';

/**
 * A skill as its author writes it, for {@link defineSkill}.
 *
 * @experimental
 */
export interface SkillDefinition {
  /** The SKILL.md text: YAML frontmatter with at least `name` and `description`, then markdown. */
  skillMd: string;
  /** Supporting files by their path inside the skill (`references/FORMS.md`): text or bytes. */
  files?: Readonly<Record<string, string | Uint8Array>>;
  /**
   * Path segments before the skill's name in its URI, to group skills:
   * `path: 'acme/docs'` serves `skill://acme/docs/<name>/SKILL.md`. Default: `skill://<name>/SKILL.md`.
   */
  path?: string;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  ts: 'text/typescript',
  html: 'text/html',
  csv: 'text/csv',
};

function mimeTypeOf(path: string, content: string | Uint8Array): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  const known = extension === undefined ? undefined : MIME_TYPES[extension];
  return known ?? (typeof content === 'string' ? 'text/plain' : 'application/octet-stream');
}

/** Segments of a relative path; a TypeError for empty, `.` or `..` segments. */
function segmentsOf(what: string, path: string): string[] {
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || /[?#%\\]/.test(segment)) {
      throw new TypeError(`${what} ${JSON.stringify(path)} is not a plain relative path`);
    }
  }
  return segments;
}

/**
 * Reads and checks a skill, ready for `McpServer.registerSkill`. Throws a `TypeError` for a
 * SKILL.md without `name` and `description` frontmatter, a name outside the Agent Skills
 * rules, a bad path, or a skill over the limits.
 *
 * @example
 * ```ts
 * import { defineSkill } from '@twofold/server/skills';
 *
 * server.registerSkill(
 *   defineSkill({
 *     skillMd: '---\nname: pdf-processing\ndescription: Fill PDF forms\n---\n\nSee references/FORMS.md.\n',
 *     files: { 'references/FORMS.md': '# Forms\n' },
 *   }),
 * );
 * ```
 *
 * @experimental
 */
export function defineSkill(definition: SkillDefinition): Skill {
  const parsed = parseSkillFrontmatter(definition.skillMd);
  if (!parsed.ok) throw new TypeError(`defineSkill: ${parsed.reason}`);
  const { frontmatter } = parsed;
  const name = frontmatter.name;
  if (!isSkillName(name)) {
    throw new TypeError(
      `defineSkill: skill name ${JSON.stringify(name)} must be 1-64 lowercase letters, digits and single inner hyphens`,
    );
  }
  const prefix =
    definition.path === undefined ? [] : segmentsOf('SkillDefinition.path', definition.path);
  const root = `${SKILL_URI_SCHEME}://${[...prefix, name].join('/')}`;
  const sources: [string, string | Uint8Array][] = [
    [SKILL_MANIFEST, definition.skillMd],
    ...Object.entries(definition.files ?? {}),
  ];
  const files = sources.map(([path, content], index): SkillFileSource => {
    segmentsOf('SkillDefinition.files path', path);
    if (index > 0 && path === SKILL_MANIFEST) {
      throw new TypeError('defineSkill: SKILL.md is the skillMd, not one of the files');
    }
    const bytes = skillFileBytes(content);
    return { uri: `${root}/${path}`, path, mimeType: mimeTypeOf(path, content), content, bytes };
  });
  if (files.length > SKILL_LIMITS.files) {
    throw new TypeError(`defineSkill: "${name}" has more than ${SKILL_LIMITS.files} files`);
  }
  const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
  if (total > SKILL_LIMITS.totalBytes) {
    throw new TypeError(`defineSkill: "${name}" is over ${SKILL_LIMITS.totalBytes} bytes`);
  }
  return Object.freeze({ name, frontmatter, root, files: Object.freeze(files) });
}
