/**
 * The client side of the skills extension (SEP-2640): enumerate a server's skills, then load one
 * (its SKILL.md) or one of its files when asked, never before. Every file read is checked
 * against the skill entry (byte size, SHA-256 digest and, for SKILL.md, the frontmatter) and
 * refused with a `SkillVerificationError` on any difference.
 */
import {
  base64ToBytes,
  isRecord,
  LocalError,
  LocalErrorCode,
  SKILL_MANIFEST,
  SKILLS_EXTENSION_ID,
  SKILLS_METHODS,
  type SkillEntry,
  type SkillFrontmatter,
  sameFrontmatter,
  skillDigest,
  skillFileBytes,
  skillsWire,
} from '@twofold/protocol/experimental';
import type { McpClient } from '../client';
import { iteratePages } from '../pagination';
import type { RequestOptions } from '../types';
import { SkillVerificationError } from './errors';

const MAX_PAGES = 100;

/**
 * A skill file as read and verified: its text (for text content) and its raw bytes.
 *
 * @experimental
 */
export interface SkillFileContent {
  uri: string;
  mimeType: string | undefined;
  text: string | undefined;
  bytes: Uint8Array;
  /** False only for a skill with `resources: "dynamic"`, which publishes no digests. */
  verified: boolean;
}

/**
 * A loaded skill: its entry, the SKILL.md as read, its frontmatter and its markdown body.
 *
 * @experimental
 */
export interface LoadedSkill {
  entry: SkillEntry;
  manifest: SkillFileContent;
  frontmatter: SkillFrontmatter;
  body: string;
}

/**
 * The skills of the server an `McpClient` is connected to.
 *
 * @example
 * ```ts
 * const skills = new SkillsClient(client);
 * if (skills.supported) {
 *   const [first] = await skills.list();
 *   const loaded = await skills.load(first.uri); // reads and verifies SKILL.md only
 *   console.log(loaded.body);
 * }
 * ```
 * @experimental
 */
export class SkillsClient {
  constructor(private readonly client: McpClient) {}

  /** Whether the server declares the skills extension. */
  get supported(): boolean {
    return this.client.serverCapabilities.extensions?.[SKILLS_EXTENSION_ID] !== undefined;
  }

  /** Every skill the server lists (`skills/list`, all pages); reads no skill file. */
  async list(options: RequestOptions = {}): Promise<SkillEntry[]> {
    const fetchPage = async (cursor: string | undefined) => {
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.client.request(SKILLS_METHODS.list, params, options);
      const parsed = checked(skillsWire.ListSkillsResult, result, SKILLS_METHODS.list);
      return { items: parsed.skills, nextCursor: parsed.nextCursor };
    };
    const entries: SkillEntry[] = [];
    for await (const entry of iteratePages(fetchPage, MAX_PAGES)) entries.push(entry);
    return entries;
  }

  /** One skill's entry by its SKILL.md URI (`skills/get`). */
  async get(uri: string, options: RequestOptions = {}): Promise<SkillEntry> {
    const result = await this.client.request(SKILLS_METHODS.get, { uri }, options);
    return checked(skillsWire.GetSkillResult, result, SKILLS_METHODS.get).skill;
  }

  /**
   * Loads a skill: finds its entry (by SKILL.md URI, or by name among the listed skills), reads
   * its SKILL.md and verifies size, digest and frontmatter. Supporting files stay unread.
   */
  async load(skill: string | SkillEntry, options: RequestOptions = {}): Promise<LoadedSkill> {
    const entry = typeof skill === 'string' ? await this.find(skill, options) : skill;
    const manifest = await this.readFile(entry, entry.uri, options);
    // The YAML parser loads with the first skill, not with every client.
    const { parseSkillFrontmatter } = await import('./frontmatter');
    const parsed = parseSkillFrontmatter(manifest.text ?? '');
    if (!parsed.ok) {
      throw new SkillVerificationError('frontmatter', entry.uri, `${entry.uri}: ${parsed.reason}`);
    }
    if (!sameFrontmatter(parsed.frontmatter, entry.frontmatter)) {
      throw new SkillVerificationError(
        'frontmatter',
        entry.uri,
        `${entry.uri}: its frontmatter differs from the skill entry's`,
      );
    }
    return { entry, manifest, frontmatter: parsed.frontmatter, body: parsed.body };
  }

  /**
   * Reads one file of a skill (`references/FORMS.md`, or its full URI) and verifies it against
   * the entry. A file the entry does not list is refused before anything is read.
   */
  async readFile(
    entry: SkillEntry,
    file: string,
    options: RequestOptions = {},
  ): Promise<SkillFileContent> {
    const root = entry.uri.slice(0, entry.uri.length - SKILL_MANIFEST.length);
    const uri = file.includes('://') ? file : `${root}${file}`;
    const listed =
      entry.resources === 'dynamic' ? undefined : entry.resources.find((r) => r.uri === uri);
    if (entry.resources !== 'dynamic' && listed === undefined) {
      throw new SkillVerificationError('unlisted', uri, `${uri} is not a file of ${entry.uri}`);
    }
    const read = await this.client.readResource(uri, options);
    const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
    const text = typeof content?.text === 'string' ? content.text : undefined;
    const blob = typeof content?.blob === 'string' ? content.blob : undefined;
    const bytes = text !== undefined ? skillFileBytes(text) : base64ToBytes(blob ?? '');
    const result = {
      uri,
      mimeType: content?.mimeType,
      text,
      bytes,
      verified: listed !== undefined,
    };
    if (listed === undefined) return result;
    if (bytes.length !== listed.size) {
      throw new SkillVerificationError(
        'size',
        uri,
        `${uri}: ${bytes.length} bytes, the entry says ${listed.size}`,
        {
          expected: listed.size,
          actual: bytes.length,
        },
      );
    }
    const digest = await skillDigest(bytes);
    if (digest !== listed.digest) {
      throw new SkillVerificationError(
        'digest',
        uri,
        `${uri}: its digest does not match the entry`,
        {
          expected: listed.digest,
          actual: digest,
        },
      );
    }
    return result;
  }

  private async find(skill: string, options: RequestOptions): Promise<SkillEntry> {
    if (skill.includes('://')) return this.get(skill, options);
    const matches = (await this.list(options)).filter((entry) => entry.frontmatter.name === skill);
    const [match] = matches;
    if (match === undefined) throw new RangeError(`the server lists no skill named "${skill}"`);
    if (matches.length > 1) {
      const uris = matches.map((entry) => entry.uri).join(', ');
      throw new RangeError(`several skills are named "${skill}" (${uris}); pass a URI`);
    }
    return match;
  }
}

function checked<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  result: unknown,
  method: string,
): T {
  const parsed = schema.safeParse(isRecord(result) ? result : {});
  if (!parsed.success) {
    throw new LocalError(
      LocalErrorCode.InvalidResult,
      `${method}: the server sent a malformed result`,
    );
  }
  return parsed.data;
}
