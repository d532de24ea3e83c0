/**
 * A request's cancel state whose `AbortSignal` is made only when someone reads it: most
 * handlers never do, and an `AbortController` costs more than answering most requests.
 */
export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  abort(): void {
    this.#aborted = true;
    this.#controller?.abort();
  }
}
