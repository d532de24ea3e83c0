import type { ProtocolVersion } from '../versions';

/**
 * What changes between revisions, as data. Every schema is written once and reads these flags;
 * a revision is one row of this table.
 *
 * @experimental
 */
export interface WireFeatures {
  /** 2026-07-28 and later: stateless, `_meta` on every request, `resultType` on every result. */
  readonly modern: boolean;
  /** `audio` and `resource_link` content blocks (from 2025-06-18 in the offered revisions). */
  readonly richContent: boolean;
  /** `structuredContent` and `outputSchema` on tools: absent, an object, or any JSON value. */
  readonly structuredContent: 'none' | 'object' | 'any';
  /** `elicitation/create`: absent, form only, form + URL with `elicitationId`, form + URL. */
  readonly elicitation: 'none' | 'form' | 'form-and-url-with-id' | 'form-and-url';
  /** Sampling with tools: `tool_use` / `tool_result` blocks, `tools`, `toolChoice`. */
  readonly samplingTools: boolean;
  /** The experimental core tasks methods of 2025-11-25. */
  readonly tasks: boolean;
  /** Error responses may omit `id` when the request id was unreadable. */
  readonly errorIdOptional: boolean;
}

export const FEATURES_2024_11_05: WireFeatures = {
  modern: false,
  richContent: false,
  structuredContent: 'none',
  elicitation: 'none',
  samplingTools: false,
  tasks: false,
  errorIdOptional: false,
};

export const FEATURES_2025_06_18: WireFeatures = {
  ...FEATURES_2024_11_05,
  richContent: true,
  structuredContent: 'object',
  elicitation: 'form',
};

export const FEATURES_2025_11_25: WireFeatures = {
  ...FEATURES_2025_06_18,
  elicitation: 'form-and-url-with-id',
  samplingTools: true,
  tasks: true,
  errorIdOptional: true,
};

export const FEATURES_2026_07_28: WireFeatures = {
  ...FEATURES_2025_11_25,
  modern: true,
  structuredContent: 'any',
  elicitation: 'form-and-url',
  tasks: false,
};

/** Each supported revision's row. */
export const FEATURES_BY_VERSION: Readonly<Record<ProtocolVersion, WireFeatures>> = {
  '2026-07-28': FEATURES_2026_07_28,
  '2025-11-25': FEATURES_2025_11_25,
  '2025-06-18': FEATURES_2025_06_18,
  '2024-11-05': FEATURES_2024_11_05,
};

/**
 * Builds a schema once per revision: factories called from several places (the method table,
 * the named definitions, the typed shapes) share one instance.
 */
export function perRevision<T>(build: (f: WireFeatures) => T): (f: WireFeatures) => T {
  const built = new WeakMap<WireFeatures, T>();
  return (f) => {
    let value = built.get(f);
    if (value === undefined) {
      value = build(f);
      built.set(f, value);
    }
    return value;
  };
}
