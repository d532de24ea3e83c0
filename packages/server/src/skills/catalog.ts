/**
 * The skills one server serves, and the extension methods over them: `skills/list` (paged by
 * SKILL.md URI, each entry whole on one page), `skills/get`, and `resources/directory/read`.
 * Digests are computed once per skill, on the first request that needs them.
 */
import {
  DIRECTORY_MIME_TYPE,
  type DirectoryChild,
  ErrorCode,
  ProtocolError,
  SKILL_MANIFEST,
  SKILLS_METHODS,
  type SkillEntry,
  skillDigest,
  skillsWire,
} from '@twofold/protocol/experimental';
import type { CachePolicy } from '../api';
import type { ExtensionMethod } from '../core/extension-methods';
import { decodeCursor, encodeCursor } from '../registry/cursor';
import type { Skill } from './skill';

interface CatalogSlot {
  skill: Skill;
  enabled: boolean;
  entry?: Promise<SkillEntry>;
}

/** What the catalog needs from its server. */
export interface CatalogOptions {
  pageSize: number;
  cache: CachePolicy;
}

export class SkillCatalog {
  /** By SKILL.md URI. */
  private readonly slots = new Map<string, CatalogSlot>();

  constructor(private readonly options: CatalogOptions) {}

  has(uri: string): boolean {
    return this.slots.has(uri);
  }

  /** Adds a skill; the returned slot's `enabled` hides or shows it. */
  add(skill: Skill): { enabled: boolean } {
    const slot: CatalogSlot = { skill, enabled: true };
    this.slots.set(`${skill.root}/${SKILL_MANIFEST}`, slot);
    return slot;
  }

  remove(skill: Skill): void {
    this.slots.delete(`${skill.root}/${SKILL_MANIFEST}`);
  }

  /** The extension methods, by method name. */
  methods(): ReadonlyMap<string, ExtensionMethod> {
    return new Map<string, ExtensionMethod>([
      [SKILLS_METHODS.list, { params: skillsWire.ListSkillsParams, call: (p) => this.list(p) }],
      [SKILLS_METHODS.get, { params: skillsWire.GetSkillParams, call: (p) => this.get(p) }],
      [
        SKILLS_METHODS.readDirectory,
        { params: skillsWire.ReadDirectoryParams, call: (p) => this.readDirectory(p) },
      ],
    ]);
  }

  private enabled(): [string, CatalogSlot][] {
    return [...this.slots]
      .filter(([, slot]) => slot.enabled)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  private async list(params: Record<string, unknown>) {
    const cursor = params.cursor as string | undefined;
    const after = cursor === undefined ? undefined : decodeCursor('skills', cursor);
    const remaining = this.enabled().filter(([uri]) => after === undefined || uri > after);
    const page = remaining.slice(0, this.options.pageSize);
    const skills = await Promise.all(page.map(([, slot]) => entryOf(slot)));
    const result: Record<string, unknown> = { skills };
    const last = page[page.length - 1];
    if (remaining.length > page.length && last !== undefined) {
      result.nextCursor = encodeCursor('skills', last[0]);
    }
    return { result, cache: this.options.cache };
  }

  private async get(params: Record<string, unknown>) {
    const uri = params.uri as string;
    const slot = this.slots.get(uri);
    if (slot === undefined || !slot.enabled) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown skill: ${uri}`, { uri });
    }
    return { result: { skill: await entryOf(slot) }, cache: this.options.cache };
  }

  /** The direct children of a skill directory (or of a directory inside one); one page. */
  private async readDirectory(params: Record<string, unknown>) {
    const uri = String(params.uri).replace(/\/+$/, '');
    if (params.cursor !== undefined) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        'Invalid cursor for resources/directory/read',
      );
    }
    const children = new Map<string, DirectoryChild>();
    let isDirectory = false;
    for (const [, slot] of this.enabled()) {
      const { root, files } = slot.skill;
      if (uri !== root && !uri.startsWith(`${root}/`)) continue;
      const inside = uri === root ? '' : `${uri.slice(root.length + 1)}/`;
      for (const file of files) {
        if (!file.path.startsWith(inside)) continue;
        isDirectory = true;
        const [child, ...deeper] = file.path.slice(inside.length).split('/');
        const childUri = `${uri}/${child}`;
        children.set(
          childUri,
          deeper.length > 0
            ? { uri: childUri, name: child as string, mimeType: DIRECTORY_MIME_TYPE }
            : {
                uri: childUri,
                name: child as string,
                mimeType: file.mimeType,
                size: file.bytes.length,
              },
        );
      }
    }
    if (!isDirectory) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Not a skill directory: ${uri}`, { uri });
    }
    const resources = [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1));
    return { result: { resources }, cache: this.options.cache };
  }
}

function entryOf(slot: CatalogSlot): Promise<SkillEntry> {
  slot.entry ??= (async () => {
    const { skill } = slot;
    const resources = await Promise.all(
      skill.files.map(async (file) => ({
        uri: file.uri,
        digest: await skillDigest(file.bytes),
        size: file.bytes.length,
      })),
    );
    return { uri: `${skill.root}/${SKILL_MANIFEST}`, frontmatter: skill.frontmatter, resources };
  })();
  return slot.entry;
}
