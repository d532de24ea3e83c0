/**
 * Reading a client's answers to input requests. Answers arrive from the client, so each is
 * checked: a missing or malformed answer reads as `undefined` and the handler asks again.
 */

type Answers = Readonly<Record<string, unknown>> | undefined;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The string `field` of an accepted elicitation answered under `key`. */
export function elicited(answers: Answers, key: string, field: string): string | undefined {
  const answer = record(answers?.[key]);
  if (answer?.action !== 'accept') return undefined;
  const value = record(answer.content)?.[field];
  return typeof value === 'string' || typeof value === 'boolean' ? String(value) : undefined;
}

/** The text of a sampling answer under `key`. */
export function sampledText(answers: Answers, key: string): string | undefined {
  const text = record(record(answers?.[key])?.content)?.text;
  return typeof text === 'string' ? text : undefined;
}

/** The root URIs of a `roots/list` answer under `key`. */
export function rootUris(answers: Answers, key: string): string[] | undefined {
  const roots = record(answers?.[key])?.roots;
  if (!Array.isArray(roots)) return undefined;
  const uris = roots.map((root) => record(root)?.uri);
  return uris.every((uri) => typeof uri === 'string') ? (uris as string[]) : undefined;
}
