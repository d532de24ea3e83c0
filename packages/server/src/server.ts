/**
 * `McpServer`: one long-lived registry of tools, resources and prompts, served to modern and
 * legacy clients alike by the dispatchers through `operations`.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import {
  type Implementation,
  isLegacyVersion,
  isModernVersion,
  LEGACY_VERSIONS,
  type LegacyVersion,
  type McpHeaderParam,
  MODERN_VERSIONS,
  type ModernVersion,
  SKILLS_EXTENSION_ID,
} from '@twofold/protocol/experimental';
import type {
  CachePolicy,
  PromptDefinition,
  Registered,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './api';
import type { ExtensionMethod } from './core/extension-methods';
import type { McpServerOptions } from './core/options';
import { requestStateCodecOf } from './mrtr/modern-state';
import type { Operations } from './operations/types';
import { checkCache, checkIcons, checkText, checkUri } from './registry/checks';
import { createPromptEntry } from './registry/prompts';
import { Registry } from './registry/registry';
import { RegistryOperations } from './registry/registry-operations';
import { createResourceEntry, createTemplateEntry } from './registry/resources';
import { createToolEntry } from './registry/tools';
import { pickDefined } from './registry/wire-fields';
import { SkillCatalog } from './skills/catalog';
import { registerSkillIn } from './skills/register';
import type { Skill } from './skills/skill';

// Never reused, never shared: safe until the author says otherwise.
const DEFAULT_CACHE: CachePolicy = { ttlMs: 0, cacheScope: 'private' };
const DEFAULT_PAGE_SIZE = 100;

/** The offered versions, checked, deduplicated and newest first. */
function offered<V extends string>(
  all: readonly V[],
  wanted: readonly string[] | undefined,
  isKnown: (version: unknown) => boolean,
  era: string,
): readonly V[] {
  for (const version of wanted ?? []) {
    if (!isKnown(version)) {
      throw new TypeError(
        `${JSON.stringify(version)} is not a ${era} protocol version twofold speaks`,
      );
    }
  }
  return Object.freeze(all.filter((version) => wanted === undefined || wanted.includes(version)));
}

/**
 * An MCP server: register tools, resources, resource templates and prompts once, then serve
 * them to every client era. Registration checks everything up front and throws a `TypeError`
 * for a programmer error (an invalid name, a duplicate, an unusable schema). Each schema is
 * converted to JSON Schema once, here, not per request.
 *
 * Lists come in a deterministic order: tools and prompts by name, resources by URI, templates
 * by template text (comparing UTF-16 code units); cursors carry a position, so they stay valid
 * on another instance registering the same items.
 *
 * @example
 * ```ts
 * import { McpServer } from '@twofold/server/experimental';
 * import { serveHttp, serveStdio } from '@twofold/server/node';
 *
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * server.registerTool({ name: 'ping', handler: () => 'pong' });
 * await serveStdio(server); // or: const endpoint = await serveHttp(server, { port: 3000 });
 * ```
 * @experimental
 */
export class McpServer {
  readonly options: Readonly<McpServerOptions>;
  /** `serverInfo` of every result (modern) and of `initialize` (legacy). */
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  /** The versions served, newest first per era. */
  readonly offeredVersions: {
    readonly modern: readonly ModernVersion[];
    readonly legacy: readonly LegacyVersion[];
  };
  /** What the dispatchers call; era-neutral. */
  readonly operations: Operations;
  private readonly registry = new Registry();
  private skills: SkillCatalog | undefined;

  constructor(options: McpServerOptions) {
    checkText('McpServerOptions.name', options.name);
    checkText('McpServerOptions.version', options.version);
    checkIcons('McpServerOptions', options.icons);
    checkCache('McpServerOptions', options.cache);
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      throw new TypeError('McpServerOptions.pageSize must be a whole number >= 1');
    }
    const modern = offered(MODERN_VERSIONS, options.versions?.modern, isModernVersion, 'modern');
    const legacy = offered(LEGACY_VERSIONS, options.versions?.legacy, isLegacyVersion, 'legacy');
    if (modern.length + legacy.length === 0) {
      throw new TypeError('McpServerOptions.versions must offer at least one version');
    }
    this.options = Object.freeze({ ...options });
    this.serverInfo = Object.freeze({
      name: options.name,
      version: options.version,
      ...pickDefined(options, ['title', 'description', 'websiteUrl', 'icons']),
    });
    this.instructions = options.instructions;
    this.offeredVersions = Object.freeze({ modern, legacy });
    this.operations = new RegistryOperations(this.registry, {
      pageSize,
      cache: options.cache ?? DEFAULT_CACHE,
    });
    // Built here so that invalid `requestState` options fail now, not on a first request.
    requestStateCodecOf(this);
  }

  /**
   * Registers a tool. `inputSchema` and `outputSchema` may be zod 4 schemas (or a raw zod
   * shape), any Standard Schema implementing `~standard.jsonSchema`, or JSON Schema (2020-12
   * by default; `$ref` must resolve inside the schema). The input schema's root must be
   * `type: "object"`; without one the tool takes no arguments. Arguments are validated before
   * the handler runs (a failure is an `isError` result), and a handler that throws yields an
   * `isError` result with its message, except for a `ProtocolError`, which stays a protocol
   * error. With an output schema, `structuredContent` is required and validated.
   *
   * @example
   * ```ts
   * server.registerTool({
   *   name: 'get_forecast',
   *   description: 'Forecast for a city',
   *   inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).default(1) }),
   *   handler: ({ city, days }) => `${city}: sunny for ${days} day(s)`,
   * });
   * ```
   */
  registerTool<Schema extends StandardSchemaV1>(
    definition: Omit<ToolDefinition<StandardSchemaV1.InferOutput<Schema>>, 'inputSchema'> & {
      inputSchema: Schema;
    },
  ): Registered;
  registerTool<Args = Record<string, unknown>>(definition: ToolDefinition<Args>): Registered;
  registerTool(definition: ToolDefinition<never>): Registered {
    return this.registry.addTool(createToolEntry(definition));
  }

  /**
   * Registers a static resource, keyed by its URI (read by exact URI, before templates).
   *
   * @example
   * ```ts
   * server.registerResource({
   *   uri: 'weather://cities',
   *   name: 'cities',
   *   mimeType: 'text/plain',
   *   read: (uri) => ({ contents: [{ uri: uri.href, text: 'Lima, Oslo, Paris' }] }),
   * });
   * ```
   */
  registerResource(definition: ResourceDefinition): Registered {
    return this.registry.addResource(createResourceEntry(definition));
  }

  /**
   * Registers an RFC 6570 resource template (see `UriTemplate` for the matching rules). When
   * several templates match a URI, the one with the most literal characters wins.
   */
  registerResourceTemplate(definition: ResourceTemplateDefinition): Registered {
    return this.registry.addTemplate(createTemplateEntry(definition));
  }

  /**
   * Registers a prompt. Arguments are a list, or a schema whose top-level properties are the
   * arguments (their values arrive as strings). Missing required arguments are an invalid-
   * params error.
   *
   * @example
   * ```ts
   * server.registerPrompt({
   *   name: 'plan_trip',
   *   arguments: z.object({ city: z.string() }),
   *   get: ({ city }) => ({
   *     messages: [{ role: 'user', content: { type: 'text', text: `Plan a day in ${city}.` } }],
   *   }),
   * });
   * ```
   */
  registerPrompt<Args = Record<string, string>>(definition: PromptDefinition<Args>): Registered;
  registerPrompt(definition: PromptDefinition<never>): Registered {
    return this.registry.addPrompt(createPromptEntry(definition));
  }

  /**
   * Serves a skill (the `io.modelcontextprotocol/skills` extension, SEP-2640): its SKILL.md and
   * files become `skill://` resources, listed with their digests and sizes by `skills/list` and
   * `skills/get`, and browsable with `resources/directory/read`. The first skill declares the
   * extension. The skill comes from `defineSkill` (`@twofold/server/skills`), which reads its
   * SKILL.md, so that a server without skills never loads a YAML parser. Throws a `TypeError`
   * for anything else, or for a skill already registered.
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
   */
  registerSkill(skill: Skill): Registered {
    this.skills ??= new SkillCatalog({
      pageSize: this.options.pageSize ?? DEFAULT_PAGE_SIZE,
      cache: this.options.cache ?? DEFAULT_CACHE,
    });
    const registered = registerSkillIn(this.skills, (r) => this.registerResource(r), skill);
    this.registry.extensions.set(SKILLS_EXTENSION_ID, { directoryRead: true });
    return registered;
  }

  /** The handler of a method an extension adds (`skills/list`, …); `undefined` for others. */
  extensionMethod(method: string): ExtensionMethod | undefined {
    return this.skills?.methods().get(method);
  }

  /** Announces that a resource changed (to legacy subscribers and modern listeners). */
  notifyResourceUpdated(uri: string): void {
    checkUri('notifyResourceUpdated uri', uri);
    this.registry.emit({ kind: 'resource-updated', uri });
  }

  /** The `x-mcp-header` parameters of an enabled tool; `undefined` for an unknown tool. */
  headerParams(toolName: string): readonly McpHeaderParam[] | undefined {
    return this.registry.tools.get(toolName)?.headerParams;
  }
}
