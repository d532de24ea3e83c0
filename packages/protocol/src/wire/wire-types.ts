/**
 * The shape of a revision's wire, whatever its schemas are: zod schemas where the wire is
 * written, compiled validators where it runs.
 */
import type { WireFeatures } from './features';

/**
 * Who sends a method: the client, the server, or either side.
 *
 * @experimental
 */
export type Sender = 'client' | 'server' | 'both';

/**
 * One method in one revision, its schemas of type `S`.
 *
 * @experimental
 */
export interface MethodOf<S> {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly sender: Sender;
  /** Name of the spec definition of the whole message, e.g. `CallToolRequest`. */
  readonly definition: string;
  /** The params schema (optional where the revision lets params be omitted). */
  readonly params: S;
  /** The result schema (requests only); for MRTR methods it includes `input_required`. */
  readonly result?: S;
  /** Name of the spec definition of the result, e.g. `CallToolResult`. */
  readonly resultDefinition?: string;
  /** The final (`complete`) result alone, without the MRTR or task alternatives. */
  readonly completeResult?: S;
  /** Modern results of this method must carry `ttlMs` / `cacheScope`. */
  readonly cacheable: boolean;
  /** The method may answer `resultType: "input_required"` (modern MRTR). */
  readonly inputRequired: boolean;
}

/**
 * One protocol revision, its schemas of type `S`.
 *
 * @experimental
 */
export interface WireOf<S> {
  /** The revision's version string, e.g. `2026-07-28`. */
  readonly version: string;
  readonly era: 'modern' | 'legacy';
  readonly features: WireFeatures;
  /** Every JSON-RPC method of the revision, requests and notifications, by method name. */
  readonly methods: ReadonlyMap<string, MethodOf<S>>;
  /**
   * The MRTR input requests of a modern revision (`sampling/createMessage`,
   * `elicitation/create`, `roots/list`): not JSON-RPC methods there, but embedded in
   * `input_required` results. Empty for legacy revisions, where they are methods.
   */
  readonly inputRequests: ReadonlyMap<string, MethodOf<S>>;
  /** Schemas by the name the revision's `schema.json` gives the definition. */
  readonly definitions: Readonly<Record<string, S>>;
}
