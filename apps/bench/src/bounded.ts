/** Every wait of the fuzz and soak is bounded: a promise that has not settled in time fails. */

/** Thrown by {@link within} when the time is up. */
export class Unanswered extends Error {
  override readonly name = 'Unanswered';
}

/** Settles like `promise`, or rejects with {@link Unanswered} after `ms` (timer cleared). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Unanswered(`${what}: no answer within ${ms / 1000} s`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
