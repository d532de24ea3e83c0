/** The skills extension's names and limits, apart from its schemas so they load without them. */

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
