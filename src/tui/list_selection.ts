/**
 * The selected row of a list, kept by its key so it stays on the same item
 * when the list is re-read: where the key is now, and where an arrow key
 * moves it, held to the list's ends.
 *
 * @module
 */

/** `v` held to [lo, hi] (lo when the range is empty). */
export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), Math.max(lo, hi));
}

/**
 * The index of the item of `list` whose `keyOf` is `key` (compared with
 * `===`); 0 when no item has it (or with no list), so a selection that was
 * deleted falls back to the first row.
 */
export function indexOfKey<T, K>(
  list: readonly T[] | null,
  key: K | null,
  keyOf: (item: T) => K,
): number {
  return list ? Math.max(0, list.findIndex((item) => keyOf(item) === key)) : 0;
}

/**
 * The key of the item `step` rows from the one keyed `key` (from the first
 * row when `key` is not in the list), held to the first and last rows.
 * `list` must not be empty.
 */
export function movedKey<T, K>(
  list: readonly T[],
  key: K | null,
  step: number,
  keyOf: (item: T) => K,
): K {
  return keyOf(list[clamp(indexOfKey(list, key, keyOf) + step, 0, list.length - 1)]);
}
