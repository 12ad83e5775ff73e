/**
 * The median of a list of numbers, shared by every core module that needs
 * one (fuel strategy, a surveyed road's width) so they agree on what the
 * median of an even count is.
 *
 * @module
 */

/** The median of `values`: the middle one, or the mean of the two middle ones; null when empty. `values` is not changed. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
