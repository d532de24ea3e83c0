/**
 * Opening the authorization URL in a browser: `TWOFOLD_BROWSER`, else `BROWSER`, else the
 * platform's opener (`open` on macOS, the URL protocol handler on Windows, `xdg-open` where a
 * display is set). Never through a shell. Best effort: the URL is always printed as well.
 */
import { spawn } from 'node:child_process';
import { splitCommandLine } from '../cli/command-line';
import { usageError } from '../cli/exit-codes';

/** A program to run with the URL. */
export interface BrowserCommand {
  command: string;
  args: string[];
}

/**
 * How to open `url` here, or `undefined` when there is no way (`TWOFOLD_BROWSER=none`, no
 * display). A command line given in a variable gets the URL in place of `%s`, else as its
 * last argument.
 */
export function browserCommand(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): BrowserCommand | undefined {
  const given = env.TWOFOLD_BROWSER ?? env.BROWSER;
  if (given !== undefined && given.trim() !== '') {
    if (given.trim() === 'none') return undefined;
    let words: [string, ...string[]];
    try {
      words = splitCommandLine(given);
    } catch (error) {
      const name = env.TWOFOLD_BROWSER === undefined ? 'BROWSER' : 'TWOFOLD_BROWSER';
      throw usageError(`${name} is not a command line: ${(error as Error).message}`);
    }
    const [command, ...args] = words;
    const placed = args.some((arg) => arg.includes('%s'));
    return {
      command,
      args: placed ? args.map((arg) => arg.replaceAll('%s', url)) : [...args, url],
    };
  }
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // rundll32 rather than `cmd /c start`: cmd would read the URL's `&` as a command separator.
  if (platform === 'win32')
    return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { command: 'xdg-open', args: [url] };
  return undefined;
}

/**
 * Starts the browser on `url` and lets it run on its own; `note` hears when it could not be
 * started. Returns whether an attempt was made.
 */
export function openBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  note: (line: string) => void,
): boolean {
  const browser = browserCommand(url, env);
  if (browser === undefined) return false;
  try {
    const child = spawn(browser.command, browser.args, {
      stdio: 'ignore',
      detached: true,
      windowsHide: true,
      env: { ...env },
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      note(
        `could not start ${browser.command} (${error.code ?? error.message}): open the URL yourself`,
      ),
    );
    child.unref();
    return true;
  } catch (error) {
    note(`could not start ${browser.command} (${String(error)}): open the URL yourself`);
    return false;
  }
}
