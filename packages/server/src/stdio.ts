/**
 * `@twofold/server/stdio` (Node only): `serveStdio`, re-exported from `@twofold/server/node`,
 * the package's one Node entry.
 *
 * @deprecated Import from `@twofold/server/node`. This subpath stays for one minor release.
 * @packageDocumentation
 */
export {
  type ServedConnection,
  type ServeStdioOptions,
  type ServeTransportOptions,
  serveStdio,
} from './node';
