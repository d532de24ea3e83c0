/**
 * The listens open on one connection or HTTP handler, so that closing it ends them gracefully:
 * each answers its `subscriptions/listen` with the final result before the channel goes.
 */
export class OpenListens {
  // Made on first use: handlers are often built at module scope, where Workers allow no
  // AbortController.
  private shutdown: AbortController | undefined;
  private readonly serving = new Set<Promise<unknown>>();

  /** Aborted on `close`: the `shutdown` signal of the listens' `ModernIo`. */
  get signal(): AbortSignal {
    this.shutdown ??= new AbortController();
    return this.shutdown.signal;
  }

  /** Remembers a listen being served (until its final answer is out) and returns it. */
  track<T>(serving: Promise<T>): Promise<T> {
    this.serving.add(serving);
    const forget = () => this.serving.delete(serving);
    void serving.then(forget, forget);
    return serving;
  }

  /** Ends every listen and settles once their final answers have been sent. */
  async close(): Promise<void> {
    this.shutdown ??= new AbortController();
    this.shutdown.abort();
    await Promise.allSettled(this.serving);
  }
}
