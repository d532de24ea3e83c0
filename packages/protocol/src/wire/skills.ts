/**
 * The shapes of the skills extension (`io.modelcontextprotocol/skills`, SEP-2640): a server
 * publishes skills (a `SKILL.md` with YAML frontmatter, plus supporting files) as resources and
 * lists them, with a digest and size per file, through `skills/list` and `skills/get`. The same
 * shapes serve every revision; on 2026-07-28 the results also carry `resultType` and cache hints.
 */
import { z } from 'zod';
import { Cursor, MetaObject } from './primitives';

/**
 * The extension identifier, the key under `capabilities.extensions`.
 *
 * @experimental
 */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
/**
 * The URI scheme servers should use for skill resources.
 *
 * @experimental
 */
export const SKILL_URI_SCHEME = 'skill';
/**
 * The file at the root of every skill.
 *
 * @experimental
 */
export const SKILL_MANIFEST = 'SKILL.md';
/**
 * The `mimeType` of a directory child in `resources/directory/read`.
 *
 * @experimental
 */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/**
 * What a server should stay under per skill: file entries (SKILL.md included) and total bytes.
 *
 * @experimental
 */
export const SKILL_LIMITS = Object.freeze({ files: 512, totalBytes: 16 * 1024 * 1024 });
/**
 * Agent Skills naming: 1-64 lowercase letters, digits and single inner hyphens. */
export const SKILL_NAME_PATTERN = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
/** The methods the extension adds (`resources/directory/read` only with `directoryRead`).
 *
 * @experimental
 */
export const SKILLS_METHODS = Object.freeze({
  list: 'skills/list',
  get: 'skills/get',
  readDirectory: 'resources/directory/read',
});

/** `sha256:` and 64 lowercase hex digits: SHA-256 of the file's raw bytes. */
export const SkillDigest = z.string().regex(/^sha256:[0-9a-f]{64}$/);
/** The extension's settings; `{}` declares support without optional features. */
export const SkillsCapability = z.looseObject({ directoryRead: z.boolean().optional() });
/** A SKILL.md's YAML frontmatter as JSON: `name` and `description` at least. */
export const SkillFrontmatter = z.looseObject({
  name: z.string().min(1),
  description: z.string().min(1),
});
/** One file of a skill: its resource URI, digest and size in bytes. */
export const SkillFile = z.looseObject({
  uri: z.string(),
  digest: SkillDigest,
  size: z.number().int().nonnegative(),
});
/** A skill: its SKILL.md URI, frontmatter, and every file (or `dynamic`: no manifest). */
export const SkillEntry = z.looseObject({
  uri: z.string(),
  frontmatter: SkillFrontmatter,
  resources: z.union([z.array(SkillFile), z.literal('dynamic')]),
});
export const ListSkillsParams = z.looseObject({
  cursor: Cursor.optional(),
  _meta: MetaObject.optional(),
});
export const ListSkillsResult = z.looseObject({
  skills: z.array(SkillEntry),
  nextCursor: Cursor.optional(),
});
export const GetSkillParams = z.looseObject({ uri: z.string(), _meta: MetaObject.optional() });
export const GetSkillResult = z.looseObject({ skill: SkillEntry });
export const ReadDirectoryParams = z.looseObject({
  uri: z.string(),
  cursor: Cursor.optional(),
  _meta: MetaObject.optional(),
});
/** A directory's direct children; a subdirectory has `mimeType: inode/directory`. */
export const DirectoryChild = z.looseObject({
  uri: z.string(),
  name: z.string(),
  mimeType: z.string().optional(),
  description: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
});
export const ReadDirectoryResult = z.looseObject({
  resources: z.array(DirectoryChild),
  nextCursor: Cursor.optional(),
});

/**
 * The extension's params and result schemas, for peers that validate what they receive.
 *
 * @experimental
 */
export const skillsWire = Object.freeze({
  SkillsCapability,
  SkillFrontmatter,
  SkillEntry,
  ListSkillsParams,
  ListSkillsResult,
  GetSkillParams,
  GetSkillResult,
  ReadDirectoryParams,
  ReadDirectoryResult,
});
