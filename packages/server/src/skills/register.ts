/**
 * Registering one skill: its files become resources (SKILL.md named and described by its
 * frontmatter) and its entry joins the catalog, under one handle that enables, disables and
 * removes them together.
 */
import { bytesToBase64 } from '@twofold/protocol/experimental';
import type { Registered, ResourceDefinition } from '../api';
import type { SkillCatalog } from './catalog';
import type { Skill, SkillFileSource } from './skill';

function resourceOf(file: SkillFileSource, name: string, description: string | undefined) {
  const definition: ResourceDefinition = {
    uri: file.uri,
    name,
    mimeType: file.mimeType,
    size: file.bytes.length,
    read: () => ({
      contents: [
        typeof file.content === 'string'
          ? { uri: file.uri, mimeType: file.mimeType, text: file.content }
          : { uri: file.uri, mimeType: file.mimeType, blob: bytesToBase64(file.content) },
      ],
    }),
  };
  if (description !== undefined) definition.description = description;
  return definition;
}

/** Whether `value` has a checked skill's shape (a JavaScript caller may pass anything). */
function isSkill(value: unknown): value is Skill {
  const skill = value as Partial<Skill> | null;
  return (
    typeof skill === 'object' &&
    skill !== null &&
    typeof skill.name === 'string' &&
    typeof skill.root === 'string' &&
    typeof skill.frontmatter === 'object' &&
    Array.isArray(skill.files)
  );
}

/** Registers a checked skill; `addResource` is the server's resource registration. */
export function registerSkillIn(
  catalog: SkillCatalog,
  addResource: (definition: ResourceDefinition) => Registered,
  skill: Skill,
): Registered {
  if (!isSkill(skill)) {
    throw new TypeError(
      "registerSkill takes a skill made by defineSkill() from '@twofold/server/skills'",
    );
  }
  const [manifest] = skill.files;
  if (manifest === undefined || catalog.has(manifest.uri)) {
    throw new TypeError(`Skill ${JSON.stringify(manifest?.uri)} is already registered`);
  }
  const { name, description } = skill.frontmatter;
  const resources: Registered[] = [];
  try {
    for (const file of skill.files) {
      resources.push(
        addResource(
          file === manifest
            ? resourceOf(file, name, description)
            : resourceOf(file, file.path, undefined),
        ),
      );
    }
  } catch (error) {
    for (const resource of resources) resource.remove();
    throw error;
  }
  const slot = catalog.add(skill);
  let removed = false;
  return {
    get enabled() {
      return !removed && slot.enabled;
    },
    enable: () => {
      if (removed) return;
      slot.enabled = true;
      for (const resource of resources) resource.enable();
    },
    disable: () => {
      if (removed) return;
      slot.enabled = false;
      for (const resource of resources) resource.disable();
    },
    remove: () => {
      if (removed) return;
      removed = true;
      catalog.remove(skill);
      for (const resource of resources) resource.remove();
    },
  };
}
