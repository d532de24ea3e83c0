/** Small helpers the doctor's modules share. */

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const prefix = typeof code === 'string' || typeof code === 'number' ? `${code}: ` : '';
    return `${prefix}${error.message}`;
  }
  return String(error);
}

/** `items` as a readable list: `a, b and 3 more`. */
export function listOf(items: readonly string[], max = 8): string {
  if (items.length === 0) return 'none';
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** Resolves with `promise`, or rejects with `message` after `ms`; the timer never outlives it. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
