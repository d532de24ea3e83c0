/** A `ServedServer` over `TestOperations`, until the real `McpServer` is used end to end. */
import { LEGACY_VERSIONS, MODERN_VERSIONS } from '@twofold/protocol/experimental';
import type { McpServerOptions } from '../../src/core/options';
import type { ServedServer } from '../../src/core/served-server';
import { TestOperations } from './test-operations';

export function createTestServer(
  overrides: Partial<McpServerOptions> = {},
): ServedServer & { operations: TestOperations } {
  const options: McpServerOptions = {
    name: 'test-server',
    version: '1.0.0',
    instructions: 'Use echo to echo.',
    cache: { ttlMs: 60_000, cacheScope: 'public' },
    ...overrides,
  };
  return {
    options,
    serverInfo: { name: options.name, version: options.version },
    instructions: options.instructions,
    offeredVersions: {
      modern: options.versions?.modern ?? MODERN_VERSIONS,
      legacy: options.versions?.legacy ?? LEGACY_VERSIONS,
    },
    operations: new TestOperations(
      options.cache ?? { ttlMs: 0, cacheScope: 'private' },
      options.pageSize,
    ),
    headerParams: () => undefined,
  };
}
