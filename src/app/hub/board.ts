/**
 * A leaderboard's rows from the drivers' bests per car (src/storage/hub/bests.ts):
 * each driver's fastest, its gap to the first, and its theoretical best.
 *
 * @module
 */
import type { BestRow } from "../../storage/hub/bests.ts";

/** One driver's line. */
export interface BoardLine {
  driver: string;
  best_ms: number;
  lap_id: number;
  car_id: number;
  gap_ms: number;
  theoretical_best_ms: number | null;
  laps: number;
  last_driven: string;
}

/** Whether best `a` ranks before `b`: faster, or as fast and stored first. */
function before(a: BestRow, b: BestRow): boolean {
  return a.best_ms < b.best_ms || (a.best_ms === b.best_ms && a.lap_id < b.lap_id);
}

/**
 * One line per driver of `rows` (their bests, one per car), fastest first:
 * the driver's best over its cars, the laps summed, the latest finish, and
 * the theoretical best, the sum of the driver's best sectors over the cars
 * whose best lap is cut into as many sectors as its fastest (null when
 * that lap's sectors cannot be timed; never above the best lap).
 */
export function boardOf(rows: readonly BestRow[]): BoardLine[] {
  const byDriver = new Map<string, BestRow[]>();
  for (const r of rows) byDriver.set(r.driver, [...(byDriver.get(r.driver) ?? []), r]);
  const lines: (BoardLine & { best: BestRow })[] = [];
  for (const [driver, own] of byDriver) {
    const best = own.reduce((a, b) => before(b, a) ? b : a);
    let sectors: number[] | null = best.sector_best && [...best.sector_best];
    for (const r of own) {
      if (sectors === null || r.sector_best?.length !== sectors.length) continue;
      sectors = sectors.map((v, k) => Math.min(v, r.sector_best![k]));
    }
    lines.push({
      best,
      driver,
      best_ms: best.best_ms,
      lap_id: best.lap_id,
      car_id: best.car_id,
      gap_ms: 0,
      theoretical_best_ms: sectors === null
        ? null
        : Math.min(best.best_ms, sectors.reduce((a, b) => a + b, 0)),
      laps: own.reduce((n, r) => n + r.laps, 0),
      last_driven: own.reduce((l, r) => r.last_driven > l ? r.last_driven : l, ""),
    });
  }
  lines.sort((a, b) => before(a.best, b.best) ? -1 : 1);
  const first = lines[0]?.best_ms ?? 0;
  return lines.map(({ best: _b, ...line }) => ({ ...line, gap_ms: line.best_ms - first }));
}
