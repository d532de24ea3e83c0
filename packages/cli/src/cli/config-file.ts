/**
 * Editing an `mcp.json` from the command line. On a fresh HOME there is no
 * `~/.config/twofold` yet: the directory is made, private (0700), since an `mcp.json` names
 * servers with their headers and environment. A file system failure is said as one (exit 73),
 * not taken for an unreachable server.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { updateMcpConfigFile } from '@twofold/registry-adapter/node';
import { CliError, EXIT } from './exit-codes';

type Raw = Record<string, unknown>;

/** Read-modify-write of the `mcp.json` at `path`, making its directory first. */
export async function editConfigFile(path: string, change: (raw: Raw) => Raw): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await updateMcpConfigFile(path, change);
  } catch (error) {
    const code = systemCode(error);
    if (code === undefined) throw error;
    throw new CliError(EXIT.cannotWrite, `cannot write ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The system error code (`ENOENT`, `EACCES`, `EROFS`, …) of a failed file operation. */
function systemCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || error instanceof CliError) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
}
