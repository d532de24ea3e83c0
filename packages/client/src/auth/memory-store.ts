/** The default token store: credentials in this process's memory, gone when it ends. */
import type { StoredCredentials, TokenKey, TokenStore } from './types';

/**
 * Keeps credentials in memory, one record per issuer and resource.
 *
 * @experimental
 */
export class InMemoryTokenStore implements TokenStore {
  readonly #records = new Map<string, StoredCredentials>();

  async get(key: TokenKey): Promise<StoredCredentials | undefined> {
    const record = this.#records.get(keyString(key));
    return record === undefined ? undefined : structuredClone(record);
  }

  async set(key: TokenKey, value: StoredCredentials): Promise<void> {
    this.#records.set(keyString(key), structuredClone(value));
  }

  async delete(key: TokenKey): Promise<void> {
    this.#records.delete(keyString(key));
  }
}

/** One string per key; the separator cannot occur in a URL. */
export function keyString(key: TokenKey): string {
  return `${key.issuer} ${key.resource}`;
}
