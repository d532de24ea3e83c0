/**
 * `mcp.json` on disk: read (JSONC) with line/column errors, write atomically (temp file in the
 * same directory, fsync, rename), and read-modify-write serialised per path within this process.
 * The raw document is what gets edited, never the defaults-filled config, and only what changed is
 * edited in the file's text, so a file keeps its comments, formatting and shape.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { McpConfigError } from '../config/errors';
import { editJsonText } from '../config/json-edit';
import { type McpConfigDocument, parseJsonObject, parseMcpConfigText } from '../config/json-text';
import { checkMcpConfig } from '../config/parse';

/**
 * Reads and validates an `mcp.json`. Throws `McpConfigError` (with `file` set) when the file
 * cannot be read, is not JSON (with line and column), or is not a valid config.
 *
 * @experimental
 */
export async function readMcpConfigFile(path: string): Promise<McpConfigDocument> {
  return parseMcpConfigText(await readText(path), path);
}

/**
 * Writes a raw `mcp.json` document atomically: it is validated first (an invalid document throws
 * `McpConfigError` and the file is left as it was), then written to a temp file beside the target,
 * flushed, and renamed over it. Readers see the old or the new file, never a partial one. When the
 * file exists and parses, only what differs is edited in its text (comments and formatting stay);
 * otherwise the document is written as 2-space JSON with a trailing newline. An existing file's
 * permissions are kept; a symlinked file is written through the link. Serialised with
 * `updateMcpConfigFile` on the same path.
 *
 * @experimental
 */
export async function writeMcpConfigFile(
  path: string,
  raw: Record<string, unknown>,
): Promise<McpConfigDocument> {
  return serialised(path, async () => {
    const current = await readCurrent(path).catch(() => undefined);
    return validateAndWrite(path, current, raw);
  });
}

/**
 * Read-modify-write of an `mcp.json`: `edit` gets the current raw document (`{ "mcpServers": {} }`
 * when the file does not exist yet) and returns the new one, which is validated and written
 * atomically, as edits to the file's text where the two differ: comments, formatting and the
 * file's shape (`mcpServers` or VS Code's `servers`) are kept, and an edit that changes nothing
 * leaves the file's bytes as they were. Calls on the same path run one at a time, in call order,
 * within this process.
 *
 * @experimental
 */
export async function updateMcpConfigFile(
  path: string,
  edit: (
    raw: Record<string, unknown>,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>,
): Promise<McpConfigDocument> {
  return serialised(path, async () => {
    const current = await readCurrent(path);
    const raw = current?.raw ?? { mcpServers: {} };
    return validateAndWrite(path, current, await edit(structuredClone(raw)));
  });
}

/** The file's text and raw document; `undefined` when there is no file yet. */
async function readCurrent(
  path: string,
): Promise<{ text: string; raw: Record<string, unknown> } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw readError(path, error);
  }
  return { text, raw: parseJsonObject(text, path) };
}

async function validateAndWrite(
  path: string,
  current: { text: string; raw: Record<string, unknown> } | undefined,
  raw: Record<string, unknown>,
): Promise<McpConfigDocument> {
  const checked = checkMcpConfig(raw);
  if (!checked.ok) throw new McpConfigError(checked.issues, { file: path });
  const text = editJsonText(current?.text, current?.raw, raw);
  await writeAtomically(path, text);
  return { raw, config: checked.config, text };
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const target = await fs.realpath(path).catch(() => path);
  const dir = dirname(target);
  const existing = await fs.stat(target).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
  const mode = existing ?? 0o644;
  const temp = join(
    dir,
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await fs.open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    mode,
  );
  try {
    try {
      // `open` applies the umask to `mode`; set an existing file's permissions exactly.
      if (existing !== undefined) await handle.chmod(existing);
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/** Makes the rename durable; not possible on every platform (Windows), so best effort. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Durability of the directory entry is a bonus; the file itself was flushed.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function readText(path: string): Promise<string> {
  try {
    return await fs.readFile(path, 'utf8');
  } catch (error) {
    throw readError(path, error);
  }
}

function readError(path: string, error: unknown): McpConfigError {
  const reason = isNotFound(error)
    ? 'the file does not exist'
    : error instanceof Error
      ? error.message
      : String(error);
  return new McpConfigError([{ path: '', message: `cannot read ${path}: ${reason}` }], {
    file: path,
    cause: error,
  });
}

function isNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT'
  );
}

/** Per-path queue: each operation starts after the previous one on the same path settled. */
const queues = new Map<string, Promise<unknown>>();

async function serialised<T>(path: string, operation: () => Promise<T>): Promise<T> {
  const key = resolve(path);
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(operation, operation);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
