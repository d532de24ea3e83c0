/**
 * Static resources and resource templates as the registry keeps them, and the order in which
 * templates are tried against a URI.
 */
import type { Resource, ResourceTemplate } from '@twofold/protocol/experimental';
import type { CachePolicy, ResourceDefinition, ResourceTemplateDefinition } from '../api';
import {
  checkCache,
  checkCompleters,
  checkIcons,
  checkScopes,
  checkText,
  checkUri,
} from './checks';
import type { Completer } from './prompts';
import { UriTemplate } from './uri-template';
import { pickDefined } from './wire-fields';

const DESCRIPTIVE = ['title', 'description', 'mimeType', 'icons', '_meta'] as const;

/** A registered static resource. */
export interface ResourceEntry {
  /** The `resources/list` item (frozen, shared by every list result). */
  readonly resource: Readonly<Resource>;
  readonly cache: CachePolicy | undefined;
  /** Scopes an HTTP caller's token needs to read or subscribe to it. */
  readonly requiredScopes: readonly string[];
  readonly read: ResourceDefinition['read'];
}

/** A registered resource template. */
export interface TemplateEntry {
  /** The `resources/templates/list` item (frozen, shared by every list result). */
  readonly template: Readonly<ResourceTemplate>;
  readonly matcher: UriTemplate;
  readonly cache: CachePolicy | undefined;
  /** Scopes an HTTP caller's token needs to read a URI it matches, or complete its variables. */
  readonly requiredScopes: readonly string[];
  readonly complete: Readonly<Record<string, Completer>>;
  readonly read: ResourceTemplateDefinition['read'];
}

function checkCommon(
  label: string,
  definition: ResourceDefinition | ResourceTemplateDefinition,
): void {
  checkText(`${label}: name`, definition.name);
  if (typeof definition.read !== 'function')
    throw new TypeError(`${label}: read must be a function`);
  checkIcons(label, definition.icons);
  checkCache(label, definition.cache);
}

/** Checks a static resource; throws a `TypeError` when unusable. */
export function createResourceEntry(definition: ResourceDefinition): ResourceEntry {
  checkUri('Resource URI', definition.uri);
  const label = `Resource ${JSON.stringify(definition.uri)}`;
  checkCommon(label, definition);
  const resource: Resource = {
    uri: definition.uri,
    name: definition.name,
    ...pickDefined(definition, [...DESCRIPTIVE, 'size']),
  };
  return {
    resource: Object.freeze(resource),
    cache: definition.cache,
    requiredScopes: checkScopes(label, definition.requiredScopes),
    read: definition.read,
  };
}

/** Checks a resource template and parses it; throws a `TypeError` when unusable. */
export function createTemplateEntry(definition: ResourceTemplateDefinition): TemplateEntry {
  checkText('Resource template uriTemplate', definition.uriTemplate);
  const label = `Resource template ${JSON.stringify(definition.uriTemplate)}`;
  checkCommon(label, definition);
  const template: ResourceTemplate = {
    uriTemplate: definition.uriTemplate,
    name: definition.name,
    ...pickDefined(definition, DESCRIPTIVE),
  };
  return {
    template: Object.freeze(template),
    matcher: new UriTemplate(definition.uriTemplate),
    cache: definition.cache,
    requiredScopes: checkScopes(label, definition.requiredScopes),
    complete: checkCompleters(label, definition.complete),
    read: definition.read,
  };
}

/**
 * The order templates are tried in: the most literal characters first (the most specific
 * template wins), then by template text. Deterministic for a given set of templates.
 */
export function byMatchPriority(a: TemplateEntry, b: TemplateEntry): number {
  const specificity = b.matcher.literalLength - a.matcher.literalLength;
  if (specificity !== 0) return specificity;
  const left = a.template.uriTemplate;
  const right = b.template.uriTemplate;
  return left < right ? -1 : left > right ? 1 : 0;
}
