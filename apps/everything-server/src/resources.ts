/** The resources and the resource template the conformance suite reads. */
import type { McpServer } from '@twofold/server/experimental';
import { PNG_BASE64 } from './fixtures';

/** Read hints for resources whose content never changes: reusable by anyone for 5 minutes. */
const STABLE = { ttlMs: 300_000, cacheScope: 'public' } as const;

export function registerResources(server: McpServer): void {
  server.registerResource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    cache: STABLE,
    read: (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    }),
  });
  server.registerResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (a PNG image) for testing',
    mimeType: 'image/png',
    cache: STABLE,
    read: (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG_BASE64 }] }),
  });
  server.registerResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients can subscribe to',
    mimeType: 'text/plain',
    read: (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content' }],
    }),
  });
  server.registerResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
    complete: { id: (value) => ['1', '2', '3', '123'].filter((id) => id.startsWith(value)) },
    read: (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  });
}
