/**
 * The CLI's `TokenStore`: one JSON file per authorization server and resource, named by a digest
 * of the two (never a URL or a token), in a directory only its owner may enter (0700), each file
 * only its owner may read (0600), written with a temp file and a rename. A file others may read
 * is refused (its tokens may have leaked; the owner decides); a file that is not what this store
 * writes is treated as absent, with a warning. `withLock` keeps two processes from refreshing
 * one token at once.
 */

import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StoredCredentials, TokenKey, TokenStore } from '@twofold/client/experimental';
import { isRecord } from '@twofold/protocol/experimental';
import { CliError, EXIT } from '../cli/exit-codes';
import { type FileLockOptions, withFileLock } from './file-lock';

/** The format version written into each file. */
const VERSION = 1;

/** One token file as listed. */
export interface TokenFile {
  path: string;
  issuer: string;
  resource: string;
}

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** Told about a file that is treated as absent. */
  warn?: (message: string) => void;
  lock?: FileLockOptions;
}

/** Credentials kept in files under one directory. */
export class FileTokenStore implements TokenStore {
  readonly #warned = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly options: FileTokenStoreOptions = {},
  ) {}

  /** The file of `key`: `<sha-256 of issuer and resource>.json`. */
  pathOf(key: TokenKey): string {
    const digest = createHash('sha256').update(`${key.issuer}\n${key.resource}`).digest('hex');
    return join(this.dir, `${digest}.json`);
  }

  async get(key: TokenKey): Promise<StoredCredentials | undefined> {
    const path = this.pathOf(key);
    const record = await this.#read(path);
    if (record === undefined) return undefined;
    if (record.issuer !== key.issuer || record.resource !== key.resource) {
      this.#warn(path, 'it is for another server');
      return undefined;
    }
    return record.credentials;
  }

  async set(key: TokenKey, value: StoredCredentials): Promise<void> {
    await this.#ensureDir();
    const path = this.pathOf(key);
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const body = {
      version: VERSION,
      issuer: key.issuer,
      resource: key.resource,
      credentials: value,
    };
    try {
      await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async delete(key: TokenKey): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async withLock<T>(key: TokenKey, task: () => Promise<T>): Promise<T> {
    await this.#ensureDir();
    return withFileLock(this.pathOf(key).replace(/\.json$/, '.lock'), task, this.options.lock);
  }

  /** Every readable token file (what `logout` looks through when the server is unreachable). */
  async list(): Promise<TokenFile[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const files: TokenFile[] = [];
    for (const name of names.filter((n) => /^[0-9a-f]{64}\.json$/.test(n)).sort()) {
      const path = join(this.dir, name);
      const record = await this.#read(path).catch(() => undefined);
      if (record) files.push({ path, issuer: record.issuer, resource: record.resource });
    }
    return files;
  }

  /** Removes one listed file. */
  async remove(file: TokenFile): Promise<void> {
    await rm(file.path, { force: true });
  }

  async #read(
    path: string,
  ): Promise<{ issuer: string; resource: string; credentials: StoredCredentials } | undefined> {
    let text: string;
    try {
      text = await readPrivate(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.#warn(path, 'it is not JSON');
      return undefined;
    }
    const record = parsed as Record<string, unknown> | null;
    const credentials = credentialsOf(record?.credentials);
    if (
      record?.version !== VERSION ||
      typeof record.issuer !== 'string' ||
      typeof record.resource !== 'string' ||
      credentials === undefined
    ) {
      this.#warn(path, 'it is not a token file this version of twofold wrote');
      return undefined;
    }
    return { issuer: record.issuer, resource: record.resource, credentials };
  }

  #warn(path: string, why: string): void {
    if (this.#warned.has(path)) return;
    this.#warned.add(path);
    this.options.warn?.(
      `ignoring the token file ${path}: ${why} (treated as absent; a login replaces it)`,
    );
  }

  /** The directory, made 0700 when this creates it (an existing one is left as its owner set it). */
  async #ensureDir(): Promise<void> {
    await mkdir(dirname(this.dir), { recursive: true });
    try {
      await mkdir(this.dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * A token file's text, refused when it is a link or not a regular file, or when its group or
 * others have any access to it (POSIX; Windows has no such mode bits).
 */
async function readPrivate(path: string): Promise<string> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw refused(path, 'it is a link');
    throw error;
  }
  try {
    const info = await file.stat();
    if (!info.isFile()) throw refused(path, 'it is not a regular file');
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
      throw refused(
        path,
        `others may read or change it (mode ${mode}); if you trust it, run \`chmod 600 ${path}\`, else delete it and log in again`,
      );
    }
    return await file.readFile('utf8');
  } finally {
    await file.close();
  }
}

function refused(path: string, why: string): CliError {
  return new CliError(EXIT.unauthorized, `refusing the token file ${path}: ${why}`);
}

const optional = (value: unknown, type: 'string' | 'number') =>
  value === undefined || typeof value === type;

/** `value` when it has the shape of `StoredCredentials`, else `undefined`. */
function credentialsOf(value: unknown): StoredCredentials | undefined {
  if (!isRecord(value)) return undefined;
  const { tokens, client, dpopKey } = value;
  if (
    tokens !== undefined &&
    !(
      isRecord(tokens) &&
      typeof tokens.accessToken === 'string' &&
      (tokens.tokenType === 'bearer' || tokens.tokenType === 'dpop') &&
      optional(tokens.refreshToken, 'string') &&
      optional(tokens.expiresAt, 'number') &&
      optional(tokens.scope, 'string')
    )
  ) {
    return undefined;
  }
  if (
    client !== undefined &&
    !(
      isRecord(client) &&
      typeof client.clientId === 'string' &&
      optional(client.clientSecret, 'string') &&
      ['dynamic', 'metadata-document', 'pre-registered'].includes(String(client.source))
    )
  ) {
    return undefined;
  }
  if (
    dpopKey !== undefined &&
    !(isRecord(dpopKey) && isRecord(dpopKey.publicJwk) && isRecord(dpopKey.privateJwk))
  ) {
    return undefined;
  }
  return value as StoredCredentials;
}
