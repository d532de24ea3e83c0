/**
 * The shapes of the skills extension (`io.modelcontextprotocol/skills`, SEP-2640): a server
 * publishes skills (a `SKILL.md` with YAML frontmatter, plus supporting files) as resources and
 * lists them, with a digest and size per file, through `skills/list` and `skills/get`. The same
 * shapes serve every revision; on 2026-07-28 the results also carry `resultType` and cache hints.
 */
import { z } from 'zod';
import { Cursor, MetaObject } from './primitives';

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

/** The extension's zod schemas, compiled for the run time into `skillsWire`. */
export const skillsSchemas = Object.freeze({
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
