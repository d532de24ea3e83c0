/**
 * Where the CLI keeps things between runs (cached results, era verdicts, OAuth tokens) and where
 * it looks for an `mcp.json`, following the XDG conventions (and their Windows counterparts).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliIo } from './io';

/** `TWOFOLD_CACHE_DIR`, else `$XDG_CACHE_HOME/twofold`, else the platform's cache directory. */
export function cacheDir(io: Pick<CliIo, 'env'>): string {
  const { env } = io;
  if (env.TWOFOLD_CACHE_DIR) return env.TWOFOLD_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'twofold');
  if (process.platform === 'win32' && env.LOCALAPPDATA) {
    return join(env.LOCALAPPDATA, 'twofold', 'cache');
  }
  return join(env.HOME ?? homedir(), '.cache', 'twofold');
}

/**
 * Where OAuth tokens are kept: `TWOFOLD_AUTH_DIR`, else `twofold/auth` in the configuration
 * directory (`$XDG_CONFIG_HOME`, else `~/.config`; `%APPDATA%` on Windows). Not the cache
 * directory: clearing a cache must not log anyone out, nor tokens sit where caches get shared.
 */
export function authDir(io: Pick<CliIo, 'env'>): string {
  if (io.env.TWOFOLD_AUTH_DIR) return io.env.TWOFOLD_AUTH_DIR;
  return join(configBase(io), 'twofold', 'auth');
}

/** `$XDG_CONFIG_HOME`, else `%APPDATA%` on Windows, else `~/.config`. */
function configBase(io: Pick<CliIo, 'env'>): string {
  return (
    io.env.XDG_CONFIG_HOME ??
    (process.platform === 'win32' && io.env.APPDATA
      ? io.env.APPDATA
      : join(io.env.HOME ?? homedir(), '.config'))
  );
}

/**
 * The `mcp.json` to use: `--config`, else `TWOFOLD_CONFIG`, else `./mcp.json` when it exists,
 * else `$XDG_CONFIG_HOME/twofold/mcp.json` (`~/.config/twofold/mcp.json`).
 */
export function configPath(io: Pick<CliIo, 'env' | 'cwd'>, given: string | undefined): string {
  if (given !== undefined) return resolve(io.cwd, given);
  if (io.env.TWOFOLD_CONFIG) return resolve(io.cwd, io.env.TWOFOLD_CONFIG);
  const local = join(io.cwd, 'mcp.json');
  if (existsSync(local)) return local;
  return join(configBase(io), 'twofold', 'mcp.json');
}
