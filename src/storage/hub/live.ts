/**
 * The race engineer's rows (#40): who is driving now (`hub_live`, one row
 * per driver, so every hub process lists the same drivers) and the
 * messages sent to drivers (`hub_messages`, ids rising, so a logger that
 * reconnects asks for those after the last it saw and loses none).
 *
 * @module
 */
import { isoOf, type SqlRunner } from "./sql_port.ts";

/** A driver on track as stored. */
export interface LiveRow {
  driver: string;
  circuit: string | null;
  track_name: string | null;
  car_id: number | null;
  lap: number | null;
  last_frame_at: string;
}

/** What a hub process writes of a driver's latest frame. */
export interface LiveWrite extends LiveRow {
  /** The frame's text, kept when it is too big for a NOTIFY (else null). */
  frame: string | null;
}

/** A message to a driver as stored. */
export interface MessageRow {
  id: number;
  driver: string;
  text: string;
  from: string;
  sent_at: string;
}

const LIVE_COLUMNS = "driver, circuit, track_name, car_id, lap, last_frame_at";

function liveOf(r: Record<string, unknown>): LiveRow {
  const int = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    driver: String(r.driver),
    circuit: r.circuit === null ? null : String(r.circuit),
    track_name: r.track_name === null ? null : String(r.track_name),
    car_id: int(r.car_id),
    lap: int(r.lap),
    last_frame_at: isoOf(r.last_frame_at)!,
  };
}

/** Stores `row` as its driver's latest (one row per driver, replaced). */
export async function writeLive(db: SqlRunner, row: LiveWrite): Promise<void> {
  await db.query(
    `insert into hub_live (${LIVE_COLUMNS}, frame) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (driver) do update set circuit = excluded.circuit,
       track_name = excluded.track_name, car_id = excluded.car_id, lap = excluded.lap,
       last_frame_at = excluded.last_frame_at, frame = excluded.frame`,
    [
      row.driver,
      row.circuit,
      row.track_name,
      row.car_id,
      row.lap,
      row.last_frame_at,
      row.frame,
    ],
  );
}

/** The drivers whose last frame came at `since` or later, by name. */
export async function liveSince(db: SqlRunner, since: string): Promise<LiveRow[]> {
  const rows = await db.query(
    `select ${LIVE_COLUMNS} from hub_live where last_frame_at >= $1 order by driver`,
    [since],
  );
  return rows.map(liveOf);
}

/** The frame text stored for `driver` (a frame too big for a NOTIFY), or null. */
export async function storedFrame(db: SqlRunner, driver: string): Promise<string | null> {
  const rows = await db.query<{ frame: string | null }>(
    "select frame from hub_live where driver = $1",
    [driver],
  );
  return rows[0]?.frame ?? null;
}

function messageOf(r: Record<string, unknown>): MessageRow {
  return {
    id: Number(r.id),
    driver: String(r.driver),
    text: String(r.text),
    from: String(r.sender),
    sent_at: isoOf(r.sent_at)!,
  };
}

const MESSAGE_COLUMNS = "id, driver, text, sender, sent_at";

/** Stores a message to `driver` and answers it with its id and time. */
export async function insertMessage(
  db: SqlRunner,
  m: { driver: string; text: string; from: string; sent_at: string },
): Promise<MessageRow> {
  const rows = await db.query(
    `insert into hub_messages (driver, text, sender, sent_at) values ($1, $2, $3, $4)
     returning ${MESSAGE_COLUMNS}`,
    [m.driver, m.text, m.from, m.sent_at],
  );
  return messageOf(rows[0]);
}

/** Message `id`, or null when there is none. */
export async function messageById(db: SqlRunner, id: number): Promise<MessageRow | null> {
  const rows = await db.query(`select ${MESSAGE_COLUMNS} from hub_messages where id = $1`, [id]);
  return rows.length ? messageOf(rows[0]) : null;
}

/** `driver`'s messages with an id above `after` (all when null), oldest first, at most `limit`. */
export async function messagesAfter(
  db: SqlRunner,
  driver: string,
  after: number | null,
  limit: number,
): Promise<MessageRow[]> {
  const rows = await db.query(
    `select ${MESSAGE_COLUMNS} from hub_messages where driver = $1 and id > $2
     order by id limit $3`,
    [driver, after ?? 0, limit],
  );
  return rows.map(messageOf);
}

/** Whether `name` is a driver (not the admin) whose token stands. */
export async function activeDriver(db: SqlRunner, name: string): Promise<boolean> {
  const rows = await db.query(
    "select 1 from hub_drivers where name = $1 and not admin and revoked_at is null",
    [name],
  );
  return rows.length > 0;
}
