/**
 * The hub's schema, as numbered migrations applied once each, in order, in
 * one transaction under a PostgreSQL advisory lock: two hub processes
 * starting at once on one server do not race (the second waits, then finds
 * every version applied). `hub_schema_versions` lists what was applied.
 *
 * @module
 */
import { REBUILD_BESTS_SQL } from "./bests.ts";
import type { SqlPort } from "./sql_port.ts";

/** The advisory lock key the migrations run under (any fixed bigint; "hubm" in ASCII). */
export const MIGRATION_LOCK = 0x6875626d;

/** One step of the schema: its version and the statements that make it. */
export interface Migration {
  version: number;
  sql: string;
}

/** Every migration, oldest first; a new one is appended, never edited. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      create table hub_drivers (
        name text primary key,
        admin boolean not null default false,
        token_id text not null unique,
        token_salt bytea not null,
        token_hash bytea not null,
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      );
      create table hub_laps (
        id bigint generated always as identity primary key,
        driver text not null references hub_drivers (name),
        content_hash text not null,
        circuit text,
        track_name text not null,
        car_id integer not null,
        time_ms integer not null,
        finished_at text not null,
        complete boolean not null,
        sector_ms jsonb,
        fields jsonb not null,
        samples bytea not null,
        created_at timestamptz not null default now(),
        unique (driver, content_hash)
      );
      create index hub_laps_board_car on hub_laps (circuit, car_id, driver, time_ms, id)
        where complete;
      create index hub_laps_board on hub_laps (circuit, driver, time_ms, id) where complete;
      create index hub_laps_by_circuit on hub_laps (circuit, id desc);
      create index hub_laps_by_driver on hub_laps (driver, id desc);
      create index hub_laps_by_car on hub_laps (car_id, id desc);
      create table hub_bundles (
        slug text primary key,
        name text not null,
        generation integer not null,
        doc text not null,
        sections jsonb,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 2,
    sql: `
      create table hub_bests (
        circuit text not null,
        car_id integer not null,
        driver text not null references hub_drivers (name),
        lap_id bigint not null,
        best_ms integer not null,
        laps integer not null,
        last_driven text not null,
        sector_best jsonb,
        primary key (circuit, car_id, driver)
      );
      ${REBUILD_BESTS_SQL}
    `,
  },
  {
    // #40: who is driving now (one row per driver, written at most ~1/s by the hub process
    // holding its socket, so every process lists the same) and the engineer's messages.
    version: 3,
    sql: `
      create table hub_live (
        driver text primary key references hub_drivers (name),
        circuit text,
        track_name text,
        car_id integer,
        lap integer,
        last_frame_at timestamptz not null,
        frame text
      );
      create index hub_live_recent on hub_live (last_frame_at);
      create table hub_messages (
        id bigint generated always as identity primary key,
        driver text not null references hub_drivers (name),
        text text not null,
        sender text not null,
        sent_at timestamptz not null default now()
      );
      create index hub_messages_by_driver on hub_messages (driver, id);
    `,
  },
];

/**
 * Applies every migration `db` lacks, in one transaction holding the
 * migration lock, and returns the versions it applied (none when another
 * process got there first). A failing migration applies nothing.
 */
export async function migrate(db: SqlPort): Promise<number[]> {
  return await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec(
      `create table if not exists hub_schema_versions (
         version integer primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    const rows = await tx.query<{ version: number }>("select version from hub_schema_versions");
    const done = new Set(rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query("insert into hub_schema_versions (version) values ($1)", [m.version]);
      applied.push(m.version);
    }
    return applied;
  });
}
