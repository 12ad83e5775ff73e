/**
 * Prints the corner count of every reference line's corner map beside the
 * catalogue's turn count, as the markdown table of docs/analysis.md
 * ("Corner counts on the reference lines"): `deno run -A
 * scripts/corner_counts.ts`. The rows are in the reference lines' order;
 * the summary line says how many are within one and within two.
 *
 * @module
 */
import { referenceCornerMap } from "../src/core/analysis/circuit_corners.ts";
import { referenceLines } from "../src/core/catalog/reference_lines.ts";

/** One row of the table. */
export interface CountRow {
  official_id: string;
  name: string;
  /** Corners on the map, and the catalogue's turns. */
  corners: number;
  turns: number;
}

/** The corner count of every reference line's map against the catalogue. */
export function cornerCounts(): CountRow[] {
  return referenceLines().map((line) => {
    const c = line.configuration;
    return {
      official_id: c.official_id,
      name: c.official_name,
      corners: referenceCornerMap(c)?.corners.length ?? 0,
      turns: c.turns,
    };
  });
}

if (import.meta.main) {
  const rows = cornerCounts();
  const within = (k: number) => rows.filter((r) => Math.abs(r.corners - r.turns) <= k).length;
  const out = [
    "| configuration | id | corners | catalogue | difference |",
    "| --- | --- | --: | --: | --: |",
    ...rows.map((r) => {
      const d = r.corners - r.turns;
      return `| ${r.name} | ${r.official_id} | ${r.corners} | ${r.turns} | ${
        d > 0 ? "+" : ""
      }${d} |`;
    }),
    "",
    `${rows.length} lines: ${within(0)} exactly the catalogue's count, ${within(1)} within one, ` +
    `${within(2)} within two.`,
  ];
  console.log(out.join("\n"));
}
