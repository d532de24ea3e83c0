/**
 * Declared tool semantics and the MCP annotations they imply.
 */
import type { ToolAnnotations } from '@twofold/protocol/experimental';

/**
 * What a tool does to the world, declared once by its author:
 * - `read-only`: changes nothing;
 * - `additive`: adds (creates, appends) without changing or removing what exists;
 * - `update`: changes existing things in place (repeating the same call has no further effect);
 * - `delete`: removes things (repeating it removes nothing more);
 * - `destructive`: changes or removes things in ways that may not be repeatable or undoable.
 *
 * `idempotent` and `openWorld` override what `effect` implies.
 *
 * @experimental
 */
export interface ToolSemantics {
  effect?: 'read-only' | 'additive' | 'update' | 'delete' | 'destructive';
  idempotent?: boolean;
  /** Talks to an open world (the web, other services) rather than a closed one. */
  openWorld?: boolean;
}

type Hints = Pick<
  ToolAnnotations,
  'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'
>;

const EFFECT_HINTS: Readonly<Record<NonNullable<ToolSemantics['effect']>, Hints>> = {
  'read-only': { readOnlyHint: true, idempotentHint: true },
  additive: { readOnlyHint: false, destructiveHint: false },
  update: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  destructive: { readOnlyHint: false, destructiveHint: true },
};

/**
 * The MCP tool annotations implied by `semantics`: `read-only` ⇒ `readOnlyHint` and
 * `idempotentHint`; `additive` ⇒ neither read-only nor destructive; `update`/`delete` ⇒
 * `destructiveHint` and `idempotentHint`; `destructive` ⇒ `destructiveHint`. `idempotent` and
 * `openWorld` set their hints directly. Every field of `explicit` wins over a derived one;
 * `undefined` when there is nothing to say.
 *
 * @experimental
 */
export function annotationsFor(
  semantics: ToolSemantics | undefined,
  explicit?: ToolAnnotations,
): ToolAnnotations | undefined {
  const derived: ToolAnnotations = {
    ...(semantics?.effect === undefined ? {} : EFFECT_HINTS[semantics.effect]),
    ...(semantics?.idempotent === undefined ? {} : { idempotentHint: semantics.idempotent }),
    ...(semantics?.openWorld === undefined ? {} : { openWorldHint: semantics.openWorld }),
  };
  const merged: ToolAnnotations = { ...derived };
  for (const [key, value] of Object.entries(explicit ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return Object.keys(merged).length === 0 ? undefined : merged;
}
