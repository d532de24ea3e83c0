/**
 * Registration checks. A failure is a programmer error, so it throws a `TypeError` at once
 * rather than surfacing later on the wire.
 */
import type { Icon } from '@twofold/protocol/experimental';
import type { CachePolicy } from '../api';

// The spec's rule for tool names, applied to prompt names too: 1–128 of [A-Za-z0-9_.-].
const NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/** Throws unless `name` follows the spec's naming rule. */
export function checkName(kind: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME_RE.test(name)) {
    throw new TypeError(
      `${kind} name ${JSON.stringify(name)} is invalid: use 1-128 characters of A-Z, a-z, 0-9, "_", "." and "-"`,
    );
  }
}

/** Throws unless `value` is a non-empty string (resource names and titles are free text). */
export function checkText(what: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${what} must be a non-empty string`);
  }
}

/** Throws unless `uri` is an absolute URI (what `resources/read` will be asked for). */
export function checkUri(what: string, uri: unknown): asserts uri is string {
  checkText(what, uri);
  if (!URL.canParse(uri)) throw new TypeError(`${what} ${JSON.stringify(uri)} is not a URI`);
}

/** Icons must be https or data: URIs; clients reject every other scheme. */
export function checkIcons(what: string, icons: readonly Icon[] | undefined): void {
  for (const icon of icons ?? []) {
    if (!/^(https:|data:)/i.test(icon.src)) {
      throw new TypeError(`${what}: icon src ${JSON.stringify(icon.src)} must be https: or data:`);
    }
  }
}

/** Completion functions, by argument or variable name; throws unless each is a function. */
export function checkCompleters<F>(
  what: string,
  complete: Record<string, F> | undefined,
): Readonly<Record<string, F>> {
  for (const [name, completer] of Object.entries(complete ?? {})) {
    if (typeof completer !== 'function') {
      throw new TypeError(`${what}: the completion of "${name}" must be a function`);
    }
  }
  return Object.freeze({ ...complete });
}

/** Cache hints must be a whole number of milliseconds and a known scope. */
export function checkCache(what: string, cache: CachePolicy | undefined): void {
  if (cache === undefined) return;
  if (!Number.isSafeInteger(cache.ttlMs) || cache.ttlMs < 0) {
    throw new TypeError(`${what}: cache.ttlMs must be a whole number of milliseconds >= 0`);
  }
  if (cache.cacheScope !== 'public' && cache.cacheScope !== 'private') {
    throw new TypeError(`${what}: cache.cacheScope must be "public" or "private"`);
  }
}

// RFC 6749 scope-token: printable ASCII without space, `"` and `\`.
const SCOPE_RE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const NO_SCOPES: readonly string[] = Object.freeze([]);

/** Whether `scope` is a valid OAuth scope token. */
export function isScopeToken(scope: unknown): scope is string {
  return typeof scope === 'string' && SCOPE_RE.test(scope);
}

/** Required scopes must be OAuth scope tokens; returns them frozen, duplicates dropped. */
export function checkScopes(
  what: string,
  scopes: readonly string[] | undefined,
): readonly string[] {
  if (scopes === undefined) return NO_SCOPES;
  if (!Array.isArray(scopes)) throw new TypeError(`${what}: requiredScopes must be an array`);
  for (const scope of scopes) {
    if (!isScopeToken(scope)) {
      throw new TypeError(
        `${what}: ${JSON.stringify(scope)} is not a scope (printable ASCII, no spaces or quotes)`,
      );
    }
  }
  return Object.freeze([...new Set(scopes)]);
}
