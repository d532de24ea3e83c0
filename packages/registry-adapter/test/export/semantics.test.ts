/** `annotationsFor`: declared semantics → MCP tool annotations, explicit ones winning. */
import { describe, expect, it } from 'vitest';
import { annotationsFor } from '../../src/export/semantics';

describe('annotationsFor', () => {
  it.each([
    ['read-only', { readOnlyHint: true, idempotentHint: true }],
    ['additive', { readOnlyHint: false, destructiveHint: false }],
    ['update', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }],
    ['delete', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }],
    ['destructive', { readOnlyHint: false, destructiveHint: true }],
  ] as const)('derives the hints of %s', (effect, hints) => {
    expect(annotationsFor({ effect })).toEqual(hints);
  });

  it('applies idempotent and openWorld, and lets explicit annotations win', () => {
    expect(annotationsFor({ effect: 'destructive', idempotent: true, openWorld: false })).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(
      annotationsFor({ effect: 'read-only' }, { idempotentHint: false, title: 'Look' }),
    ).toEqual({ readOnlyHint: true, idempotentHint: false, title: 'Look' });
  });

  it('says nothing when nothing is declared', () => {
    expect(annotationsFor(undefined)).toBeUndefined();
    expect(annotationsFor({})).toBeUndefined();
  });
});
