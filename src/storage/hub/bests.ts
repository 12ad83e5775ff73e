/**
 * Each driver's best at each circuit and car, kept beside the laps
 * (`hub_bests`), so a leaderboard reads a few rows per driver instead of
 * every lap of its circuit: 100,000 laps scanned per request took 300 to
 * 700 ms (bench/hub_load_bench.ts). A key's row is recomputed from its
 * laps in the transaction that adds or deletes one of them, under the
 * key's lock, so it is never behind the laps.
 *
 * @module
 */
import type { SqlParam, SqlRunner } from "./sql_port.ts";

/** The first key of the per-(circuit, car, driver) locks ("hubs" in ASCII). */
export const BESTS_LOCK = 0x68756273;

/**
 * The rows of `hub_bests` for the laps `filter` (SQL over hub_laps) picks:
 * the best complete lap, the count of laps and the latest finish, and the
 * best of each sector over the complete laps cut into as many sectors as
 * the best one.
 */
function bestsSql(filter: string): string {
  return `
    with scope as (select * from hub_laps where circuit is not null ${filter}),
    best as (
      select distinct on (circuit, car_id, driver) circuit, car_id, driver, id, time_ms, sector_ms
      from scope where complete order by circuit, car_id, driver, time_ms, id
    ),
    counts as (
      select circuit, car_id, driver, count(*)::int as laps, max(finished_at) as last_driven
      from scope group by circuit, car_id, driver
    ),
    sectors as (
      select l.circuit, l.car_id, l.driver, s.k, min(s.v::int) as v
      from scope l join best b using (circuit, car_id, driver),
        jsonb_array_elements_text(l.sector_ms) with ordinality as s(v, k)
      where l.complete and jsonb_array_length(l.sector_ms) = jsonb_array_length(b.sector_ms)
      group by l.circuit, l.car_id, l.driver, s.k
    ),
    agg as (
      select circuit, car_id, driver, jsonb_agg(v order by k) as sector_best
      from sectors group by circuit, car_id, driver
    )
    insert into hub_bests (circuit, car_id, driver, lap_id, best_ms, laps, last_driven, sector_best)
    select b.circuit, b.car_id, b.driver, b.id, b.time_ms, c.laps, c.last_driven, a.sector_best
    from best b join counts c using (circuit, car_id, driver)
      left join agg a using (circuit, car_id, driver)`;
}

/** Recomputes every row of `hub_bests` from the laps (after laps were written around it). */
export const REBUILD_BESTS_SQL = `delete from hub_bests; ${bestsSql("")};`;

/**
 * Recomputes the best of `driver` at `circuit` with car `car` from its laps.
 * Must run in the transaction that changed one of those laps: the key's
 * lock is held to its end.
 */
export async function refreshBest(
  tx: SqlRunner,
  circuit: string,
  car: number,
  driver: string,
): Promise<void> {
  const key: SqlParam[] = [circuit, car, driver];
  await tx.query("select pg_advisory_xact_lock($1, hashtext($2))", [
    BESTS_LOCK,
    `${circuit}\u0001${car}\u0001${driver}`,
  ]);
  await tx.query("delete from hub_bests where circuit = $1 and car_id = $2 and driver = $3", key);
  await tx.query(bestsSql("and circuit = $1 and car_id = $2 and driver = $3"), key);
}

/** A driver's best at a circuit with one car. */
export interface BestRow {
  driver: string;
  car_id: number;
  lap_id: number;
  best_ms: number;
  laps: number;
  last_driven: string;
  /** The best of each sector; null when the best lap's sectors cannot be timed. */
  sector_best: number[] | null;
}

/** The bests at `circuit` (with car `car` when not null), every driver and car. */
export async function bestRows(
  db: SqlRunner,
  circuit: string,
  car: number | null,
): Promise<BestRow[]> {
  const rows = await db.query(
    `select driver, car_id, lap_id, best_ms, laps, last_driven, sector_best from hub_bests
     where circuit = $1 ${car === null ? "" : "and car_id = $2"}`,
    car === null ? [circuit] : [circuit, car],
  );
  return rows.map((r) => ({
    driver: String(r.driver),
    car_id: Number(r.car_id),
    lap_id: Number(r.lap_id),
    best_ms: Number(r.best_ms),
    laps: Number(r.laps),
    last_driven: String(r.last_driven),
    sector_best: typeof r.sector_best === "string"
      ? JSON.parse(r.sector_best)
      : (r.sector_best as number[] | null),
  }));
}
