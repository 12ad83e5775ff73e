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
  const around = (n: number) => {
    const first = Math.min(Math.max(0, at - Math.floor(n / 2)), items.length - n);
    return {
      rows: items.slice(first, first + n).map((item, i) => ({ item, at: first + i })),
      above: first,
      below: items.length - first - n,
    };
  };
  // One line for a hint; when items are left out on both sides, one more.
  const one = around(Math.max(1, lines - 1));
  if (one.above === 0 || one.below === 0 || lines <= 2) return one;
  return around(lines - 2);
}

/** The line saying `count` rows are left out above (`up`) or below. */
export function moreText(count: number, up: boolean): string {
  return `${up ? "↑" : "↓"} ${count} more`;
}
