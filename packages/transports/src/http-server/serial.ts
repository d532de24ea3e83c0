/** Runs async actions one after another, so writes to a stream keep their call order. */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `action` after every action queued before it; its outcome is returned as is. */
  run<T>(action: () => Promise<T>): Promise<T> {
    const result = this.tail.then(action);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
