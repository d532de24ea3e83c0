/**
 * Placeholder: filled in by its area.
 *
 * @experimental
 * @packageDocumentation
 */
export {};
