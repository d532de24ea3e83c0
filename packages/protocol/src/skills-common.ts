/**
 * Pure helpers of the skills extension that servers and clients share, so a digest or a
 * frontmatter means the same on both sides: the SHA-256 digest of a file's bytes, frontmatter
 * equality, and where a skill's files sit under its URI. Reading a SKILL.md's YAML is in
 * `./skills.ts`, an entry of its own.
 */
import type { z } from 'zod';
import { namedValidators } from './compiled/validator';
import { SKILL_MANIFEST, SKILL_NAME_PATTERN } from './skills-ids';
import { isRecord } from './util';
import type * as wire from './wire/skills';

/**
 * One file of a skill: `uri`, `digest` (`sha256:<hex>`) and `size` in bytes.
 *
 * @experimental
 */
export type SkillFile = z.infer<typeof wire.SkillFile>;
/**
 * A skill as `skills/list` and `skills/get` describe it.
 *
 * @experimental
 */
export type SkillEntry = z.infer<typeof wire.SkillEntry>;
/**
 * The extension's capability settings.
 *
 * @experimental
 */
export type SkillsCapability = z.infer<typeof wire.SkillsCapability>;
/**
 * The `skills/list` result.
 *
 * @experimental
 */
export type ListSkillsResult = z.infer<typeof wire.ListSkillsResult>;
/**
 * The `skills/get` result.
 *
 * @experimental
 */
export type GetSkillResult = z.infer<typeof wire.GetSkillResult>;
/**
 * A direct child in a `resources/directory/read` result.
 *
 * @experimental
 */
export type DirectoryChild = z.infer<typeof wire.DirectoryChild>;
/**
 * The `resources/directory/read` result.
 *
 * @experimental
 */
export type ReadDirectoryResult = z.infer<typeof wire.ReadDirectoryResult>;

/**
 * A SKILL.md's frontmatter: the YAML object that the extension mirrors as `frontmatter`.
 *
 * @experimental
 */
export type SkillFrontmatter = z.infer<typeof wire.SkillFrontmatter>;

/**
 * The extension's params and result schemas, for peers that validate what they receive.
 *
 * @experimental
 */
export const skillsWire = namedValidators<SkillSchemaTypes>('skills');

/** What each of `skillsWire`'s validators accepts. */
type SkillSchemaTypes = {
  [K in keyof typeof wire.skillsSchemas]: z.output<(typeof wire.skillsSchemas)[K]>;
};

/**
 * Whether two frontmatter objects are identical in content, field by field (key order aside).
 *
 * @experimental
 */
export function sameFrontmatter(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return sameJson(a, b);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i]))
    );
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameJson(a[key] ?? null, b[key] ?? null));
  }
  return a === b;
}

/**
 * The bytes a skill file's digest and size cover: UTF-8 for text.
 *
 * @experimental
 */
export function skillFileBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? new TextEncoder().encode(content) : content;
}

/**
 * The digest of a skill file: `sha256:` and the lowercase hex SHA-256 of its raw bytes.
 *
 * @experimental
 */
export async function skillDigest(content: string | Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', skillFileBytes(content)));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/**
 * Whether `name` follows the Agent Skills naming rules (the final segment of a skill's path).
 *
 * @experimental
 */
export function isSkillName(name: string): boolean {
  return SKILL_NAME_PATTERN.test(name);
}

/**
 * The skill name a SKILL.md URI ends in (`skill://a/b/pdf/SKILL.md` → `pdf`), if it is one.
 *
 * @experimental
 */
export function skillNameOf(uri: string): string | undefined {
  const scheme = uri.indexOf('://');
  if (scheme < 0) return undefined;
  const segments = uri
    .slice(scheme + 3)
    .split('/')
    .filter((segment) => segment.length > 0);
  if (segments.length < 2 || segments[segments.length - 1] !== SKILL_MANIFEST) return undefined;
  return segments[segments.length - 2];
}
