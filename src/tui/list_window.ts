/**
 * The rows of a list that fit, around its selected row, and how many are
 * left out above and below, so a table can say `↓ 2 more` instead of
 * silently showing 6 rows of 8.
 *
 * @module
 */

/** The rows shown and what was left out. */
export interface ListWindow<T> {
  /** The items shown, each with its index in the list. */
  rows: { item: T; at: number }[];
  /** Items before the first shown. */
  above: number;
  /** Items after the last shown. */
  below: number;
}

/**
 * At most `size` lines for `items` with `selected` among them: every item
 * when they fit; else the items around `selected` in the lines left after
 * one line per side with items left out (for its `↑ N more` / `↓ N more`).
 * From a `size` of 3 the rows and the hint lines together fit in `size`;
 * below that one item is shown with its hints.
 */
export function listWindow<T>(items: readonly T[], selected: number, size: number): ListWindow<T> {
  const lines = Math.max(1, Math.floor(size));
  if (items.length <= lines) {
    return { rows: items.map((item, at) => ({ item, at })), above: 0, below: 0 };
  }
  const at = Math.min(Math.max(0, selected), items.length - 1);
  // One line for a hint; when items are left out on both sides, one more.
  const one = rowsAround(items, at, Math.max(1, lines - 1));
  if (one.above === 0 || one.below === 0 || lines <= 2) return one;
  return rowsAround(items, at, lines - 2);
}

/**
 * At most `size` (at least 1) items of `items` around `selected`, each with
 * its index, and how many are left out above and below: the window starts
 * half a window before `selected`, never before the first item, and never
 * so late that it would show fewer items than fit. A `selected` outside the
 * list (e.g. -1 for "none") gives the window at the nearer end. No lines
 * are kept for hints; `listWindow` is the one that makes room for them.
 */
export function rowsAround<T>(items: readonly T[], selected: number, size: number): ListWindow<T> {
  const n = Math.max(1, size);
  const first = Math.min(
    Math.max(0, selected - Math.floor(n / 2)),
    Math.max(0, items.length - n),
  );
  const rows = items.slice(first, first + n).map((item, i) => ({ item, at: first + i }));
  return { rows, above: first, below: items.length - first - rows.length };
}

/** The line saying `count` rows are left out above (`up`) or below. */
export function moreText(count: number, up: boolean): string {
  return `${up ? "↑" : "↓"} ${count} more`;
}
