/**
 * The listens open on one connection or HTTP handler, so that closing it ends them gracefully:
 * each answers its `subscriptions/listen` with the final result before the channel goes.
 */
export class OpenListens {
  // One controller per listen, made while serving it: Workers allow no AbortController at
  // module scope, and no request may wait on a signal another request made.
  private readonly open = new Map<Promise<unknown>, AbortController>();
  private closed = false;

  /**
   * Serves one listen with its own `shutdown` signal (already aborted once `close` was
   * called), remembered until its final answer is out.
   */
  serve<T>(run: (shutdown: AbortSignal) => Promise<T>): Promise<T> {
    const shutdown = new AbortController();
    if (this.closed) shutdown.abort();
    const serving = run(shutdown.signal);
    this.open.set(serving, shutdown);
    const forget = () => this.open.delete(serving);
    void serving.then(forget, forget);
    return serving;
  }

  /** Ends every listen and settles once their final answers have been sent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const shutdown of this.open.values()) shutdown.abort();
    await Promise.allSettled(this.open.keys());
  }
}
