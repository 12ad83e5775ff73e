/**
 * The team's laps, as rows: the columns the lists and the leaderboard
 * filter and sort by (all derived by the hub from the lap itself), the
 * lap's other fields as JSON, and its samples in the logger's stored
 * columnar form (src/storage/lap_codec.ts), so they come back bit for bit.
 * A lap is stored once per (driver, content hash).
 *
 * @module
 */
import { isoOf, type SqlParam, type SqlRunner } from "./sql_port.ts";

/** What a pushed lap is stored with. */
export interface NewLapRow {
  driver: string;
  content_hash: string;
  /** The circuit's slug; null for an unnamed lap. */
  circuit: string | null;
  track_name: string;
  car_id: number;
  time_ms: number;
  finished_at: string;
  complete: boolean;
  /** The lap's time through each sector, ms; null when its sectors cannot be timed. */
  sector_ms: number[] | null;
  /** Every other field of the lap, as its lap file carries them. */
  fields: Record<string, unknown>;
  /** The samples, as encodeSamples wrote them. */
  samples: Uint8Array;
}

/** A lap's listed columns. */
export interface LapListRow {
  id: number;
  driver: string;
  circuit: string | null;
  track_name: string;
  car_id: number;
  time_ms: number;
  finished_at: string;
  complete: boolean;
}

/** A whole stored lap. */
export interface LapRow extends LapListRow {
  fields: Record<string, unknown>;
  samples: Uint8Array;
  created_at: string;
}

/** Filters of a lap list; every one optional but `limit`. */
export interface LapFilter {
  circuit?: string;
  car?: number;
  driver?: string;
  /** Only laps with a smaller id (the page after one ending at `before`). */
  before?: number;
  limit: number;
}

/** One driver's line of a leaderboard, as the store answers it. */
export interface BoardRow {
  driver: string;
  lap_id: number;
  best_ms: number;
  car_id: number;
  laps: number;
  last_driven: string;
  /** The driver's best time through each sector, ms, over laps timed like the best one. */
  best_sectors_ms: number[] | null;
}

const LIST_COLUMNS = "id, driver, circuit, track_name, car_id, time_ms, finished_at, complete";

function json(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

function listRowOf(r: Record<string, unknown>): LapListRow {
  return {
    id: Number(r.id),
    driver: String(r.driver),
    circuit: r.circuit === null ? null : String(r.circuit),
    track_name: String(r.track_name),
    car_id: Number(r.car_id),
    time_ms: Number(r.time_ms),
    finished_at: String(r.finished_at),
    complete: r.complete === true,
  };
}

/**
 * Stores `lap` unless its driver already has a lap of that content hash;
 * either way answers the stored lap's id and whether this call created it.
 */
export async function insertLap(
  db: SqlRunner,
  lap: NewLapRow,
): Promise<{ id: number; created: boolean }> {
  const inserted = await db.query(
    `insert into hub_laps (driver, content_hash, circuit, track_name, car_id, time_ms,
       finished_at, complete, sector_ms, fields, samples)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb, $10::text::jsonb, $11)
     on conflict (driver, content_hash) do nothing returning id`,
    [
      lap.driver,
      lap.content_hash,
      lap.circuit,
      lap.track_name,
      lap.car_id,
      lap.time_ms,
      lap.finished_at,
      lap.complete,
      lap.sector_ms === null ? null : JSON.stringify(lap.sector_ms),
      JSON.stringify(lap.fields),
      lap.samples,
    ],
  );
  if (inserted.length) return { id: Number(inserted[0].id), created: true };
  const found = await db.query(
    "select id from hub_laps where driver = $1 and content_hash = $2",
    [lap.driver, lap.content_hash],
  );
  return { id: Number(found[0].id), created: false };
}

/** Lap `id` whole; null when none. */
export async function getLapRow(db: SqlRunner, id: number): Promise<LapRow | null> {
  const rows = await db.query(
    `select ${LIST_COLUMNS}, fields, samples, created_at from hub_laps where id = $1`,
    [id],
  );
  if (!rows.length) return null;
  const r = rows[0];
  return {
    ...listRowOf(r),
    fields: json(r.fields) as Record<string, unknown>,
    samples: r.samples as Uint8Array,
    created_at: isoOf(r.created_at)!,
  };
}

/** The driver of lap `id`; null when no such lap. */
export async function lapDriver(db: SqlRunner, id: number): Promise<string | null> {
  const rows = await db.query("select driver from hub_laps where id = $1", [id]);
  return rows.length ? String(rows[0].driver) : null;
}

/** Deletes lap `id`; whether it was there. */
export async function deleteLapRow(db: SqlRunner, id: number): Promise<boolean> {
  return (await db.query("delete from hub_laps where id = $1 returning id", [id])).length > 0;
}

/** Laps matching `filter`, newest (highest id) first, at most `filter.limit`. */
export async function listLapRows(db: SqlRunner, filter: LapFilter): Promise<LapListRow[]> {
  const where: string[] = [];
  const params: SqlParam[] = [];
  const add = (sql: string, value: SqlParam) => {
    params.push(value);
    where.push(sql.replace("?", `$${params.length}`));
  };
  if (filter.circuit !== undefined) add("circuit = ?", filter.circuit);
  if (filter.car !== undefined) add("car_id = ?", filter.car);
  if (filter.driver !== undefined) add("driver = ?", filter.driver);
  if (filter.before !== undefined) add("id < ?", filter.before);
  params.push(filter.limit);
  const rows = await db.query(
    `select ${LIST_COLUMNS} from hub_laps ${where.length ? `where ${where.join(" and ")}` : ""}
     order by id desc limit $${params.length}`,
    params,
  );
  return rows.map(listRowOf);
}

/**
 * Each driver's best complete lap at `circuit` (with car `car` when not
 * null), fastest first (ties: the earlier stored), with the driver's count
 * of laps there, the latest finish time, and the best of each sector over
 * the driver's laps cut into as many sectors as the best one.
 */
export async function leaderboardRows(
  db: SqlRunner,
  circuit: string,
  car: number | null,
): Promise<BoardRow[]> {
  const params: SqlParam[] = car === null ? [circuit] : [circuit, car];
  const carSql = car === null ? "" : "and car_id = $2";
  const best = await db.query(
    `with best as (
       select distinct on (driver) driver, id, time_ms, car_id, sector_ms
       from hub_laps where circuit = $1 ${carSql} and complete
       order by driver, time_ms, id
     ), counts as (
       select driver, count(*)::int as laps, max(finished_at) as last_driven
       from hub_laps where circuit = $1 ${carSql} group by driver
     )
     select best.*, counts.laps, counts.last_driven from best join counts using (driver)
     order by time_ms, id`,
    params,
  );
  const sectors = await db.query(
    `select driver, jsonb_array_length(sector_ms) as n, s.k::int as k, min(s.v::int) as best
     from hub_laps, jsonb_array_elements_text(sector_ms) with ordinality as s(v, k)
     where circuit = $1 ${carSql} and complete and sector_ms is not null
     group by driver, n, s.k`,
    params,
  );
  const bests = new Map<string, number[]>();
  for (const s of sectors) {
    const key = `${s.driver}\u0000${s.n}`;
    const list = bests.get(key) ?? [];
    list[Number(s.k) - 1] = Number(s.best);
    bests.set(key, list);
  }
  return best.map((r) => {
    const own = json(r.sector_ms) as number[] | null;
    return {
      driver: String(r.driver),
      lap_id: Number(r.id),
      best_ms: Number(r.time_ms),
      car_id: Number(r.car_id),
      laps: Number(r.laps),
      last_driven: String(r.last_driven),
      best_sectors_ms: own === null ? null : bests.get(`${r.driver}\u0000${own.length}`) ?? null,
    };
  });
}
