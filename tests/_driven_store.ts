/**
 * A synthetic drive fed into a live service, and what a store holds after
 * it: the two halves of every "no lap lost" comparison, a store that was
 * refused writes against one that never was.
 *
 * @module
 */
import { type App, createApp } from "../src/app/create_app.ts";
import type { Lap } from "../src/core/laps/lap.ts";
import type { Session } from "../src/core/laps/session.ts";
import { type DriveOptions, SyntheticDrive } from "../src/core/synthetic/drive.ts";
import { getLap, listLaps } from "../src/storage/laps.ts";
import { listSessions } from "../src/storage/sessions.ts";

/** A store's sessions and every lap of them with its samples. */
export interface StoreContents {
  laps: Lap[];
  sessions: Session[];
}

/**
 * Every session of `kv` (as listSessions orders them, or by id when
 * `oldestFirst`) and their laps with samples, session by session in lap order.
 */
export async function storeContents(kv: Deno.Kv, oldestFirst = false): Promise<StoreContents> {
  const listed = await listSessions(kv);
  const sessions = oldestFirst ? listed.sort((a, b) => a.id - b.id) : listed;
  const laps: Lap[] = [];
  for (const s of sessions) {
    for (const l of await listLaps(kv, s.id)) laps.push((await getLap(kv, l.id))!);
  }
  return { laps, sessions };
}

/**
 * Feeds the synthetic drive `opts` into `app`'s live service;
 * `afterLap(k)` runs once lap k is complete and every write settled.
 */
export async function driveInto(
  app: Pick<App, "live">,
  opts: DriveOptions,
  afterLap: (k: number) => void = () => {},
): Promise<void> {
  const d = new SyntheticDrive(opts);
  const completes = new Map(d.plan.crossingFrames.slice(1).map((f, i) => [f, i + 1]));
  let index = 0;
  for (const frame of d.frames()) {
    app.live.ingest(frame);
    const k = completes.get(index++);
    if (k !== undefined) {
      await app.live.flush();
      afterLap(k);
    }
  }
  await app.live.flush();
}

/**
 * What a store that never refused a write holds after `drives`, one after
 * the other into one live service at clock `now`: the reference the laps of
 * a refused store are compared with (see {@linkcode storeContents} for the
 * order).
 */
export async function referenceContents(
  now: string,
  drives: DriveOptions[],
  oldestFirst = false,
): Promise<StoreContents> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv, now: () => new Date(now) });
    for (const opts of drives) await driveInto(app, opts);
    await app.shutdown();
    return await storeContents(kv, oldestFirst);
  } finally {
    kv.close();
  }
}
