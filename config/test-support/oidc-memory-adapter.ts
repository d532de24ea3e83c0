/**
 * The storage of the test authorization server (test-only): an in-memory `oidc-provider` adapter
 * over a store the caller owns, so that state outlives a provider rebuilt with new keys (and so
 * that the library's own development adapter, and its warning, stay out of the tests).
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds; `Infinity` for what never expires. */
  expiresAt: number;
}

/** One store for every model: keys are `<model>:<id>`, plus the indexes below. */
export type MemoryStore = Map<string, Entry>;

export class MemoryAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: MemoryStore,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000;
    this.store.set(this.key(id), { payload, expiresAt });
    if (payload.uid) this.index(`uid:${payload.uid}`, id, expiresAt);
    if (payload.userCode) this.index(`userCode:${payload.userCode}`, id, expiresAt);
    // Tokens of one grant are found through it, for revokeByGrantId.
    if (payload.grantId) {
      const members = this.grantMembers(payload.grantId);
      members.add(this.key(id));
      this.store.set(`grant:${payload.grantId}`, {
        payload: { members: [...members] } as AdapterPayload,
        expiresAt: Infinity,
      });
    }
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.live(this.key(id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = this.live(`${this.model}:uid:${uid}`)?.jti;
    return id === undefined ? undefined : this.find(id);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = this.live(`${this.model}:userCode:${userCode}`)?.jti;
    return id === undefined ? undefined : this.find(id);
  }

  async consume(id: string): Promise<void> {
    const payload = this.live(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const key of this.grantMembers(grantId)) this.store.delete(key);
    this.store.delete(`grant:${grantId}`);
  }

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  private index(name: string, id: string, expiresAt: number): void {
    this.store.set(`${this.model}:${name}`, { payload: { jti: id }, expiresAt });
  }

  private grantMembers(grantId: string): Set<string> {
    const members = this.store.get(`grant:${grantId}`)?.payload.members;
    return new Set(Array.isArray(members) ? (members as string[]) : []);
  }

  /** The payload under `key`, unless it has expired (then it is dropped). */
  private live(key: string): AdapterPayload | undefined {
    const entry = this.store.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.store.delete(key);
      return undefined;
    }
    return entry?.payload;
  }
}
