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

/** The key of a lap's best: its driver, circuit (null: unnamed) and car. */
export interface LapKey {
  driver: string;
  circuit: string | null;
  car_id: number;
}

/** The driver, circuit and car of lap `id`; null when no such lap. */
export async function lapKey(db: SqlRunner, id: number): Promise<LapKey | null> {
  const rows = await db.query("select driver, circuit, car_id from hub_laps where id = $1", [id]);
  if (!rows.length) return null;
  const r = rows[0];
  return {
    driver: String(r.driver),
    circuit: r.circuit === null ? null : String(r.circuit),
    car_id: Number(r.car_id),
  };
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
