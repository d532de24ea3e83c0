/**
 * A progress bar on stderr, driven by the server's progress notifications, drawn only on a
 * terminal and redrawn in place. `clear()` makes room for a prompt or the result.
 */
import type { OutputStream } from './io';

const WIDTH = 24;

/** Draws progress on `stream` when it is a terminal; otherwise does nothing. */
export class ProgressBar {
  #shown = false;

  constructor(private readonly stream: OutputStream) {}

  update(progress: { progress: number; total?: number; message?: string }): void {
    if (this.stream.isTTY !== true) return;
    const { total } = progress;
    const known = total !== undefined && total > 0;
    const ratio = known ? Math.min(1, Math.max(0, progress.progress / total)) : undefined;
    const filled = ratio === undefined ? 0 : Math.round(ratio * WIDTH);
    const bar =
      ratio === undefined ? '?'.repeat(WIDTH) : '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
    const amount = ratio === undefined ? `${progress.progress}` : `${Math.round(ratio * 100)}%`;
    const message = progress.message ? ` ${progress.message}` : '';
    this.line(`${bar} ${amount}${message}`);
  }

  /** Draws `text` as the one line in place (cut to the terminal's width); nothing elsewhere. */
  line(text: string): void {
    if (this.stream.isTTY !== true) return;
    const columns = this.stream.columns ?? 80;
    this.stream.write(`\r\u001b[2K${[...text].slice(0, columns - 1).join('')}`);
    this.#shown = true;
  }

  clear(): void {
    if (!this.#shown) return;
    this.stream.write('\r\u001b[2K');
    this.#shown = false;
  }
}
