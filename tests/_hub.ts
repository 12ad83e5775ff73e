/**
 * The hub's test kit: a migrated PGlite database in a second or so (a
 * template made once per machine, then copied: PGlite's initdb alone takes
 * 15 s or more), the hub's HTTP app on a database with its admin, requests
 * to it, and a real lap file exported by the logger's own lap exchange.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HubApp } from "../src/app/hub/hub_app.ts";
import { silentLog } from "../src/app/log.ts";
import { createApp } from "../src/app/create_app.ts";
import { parseCapture } from "../src/core/gt7/capture.ts";
import { decodeFrame } from "../src/core/gt7/decode.ts";
import { createHubHttp } from "../src/server/hub/hub_http.ts";
import { MIGRATIONS } from "../src/storage/hub/migrations.ts";
import { openHubStore } from "../src/storage/hub/open_store.ts";
import type { SqlPort } from "../src/storage/hub/sql_port.ts";
import { listLaps } from "../src/storage/laps.ts";
import { readGzFixture } from "./_fixtures.ts";

/** The admin token every test hub is made with. */
export const ADMIN_TOKEN = "admin-token-for-tests-0123456789";

/** The template's folder, named by the schema's text: another schema never passes for this one. */
const TEMPLATE = join(
  tmpdir(),
  `sim-datalogger-hub-template-${
    createHash("sha256").update(JSON.stringify(MIGRATIONS)).digest("hex").slice(0, 16)
  }-pglite-0.5.16`,
);

/**
 * A data folder holding a fresh migrated PGlite database (`hub-pglite`),
 * copied from the template; the caller removes it.
 */
export async function freshPgliteFolder(): Promise<string> {
  if (!(await exists(join(TEMPLATE, "hub-pglite")))) {
    const making = await Deno.makeTempDir({ prefix: "sim-datalogger-hub-template-" });
    await (await openHubStore({ dataDir: making })).close();
    // Another test file may have made it meanwhile: either copy is a good template.
    await Deno.rename(making, TEMPLATE).catch(() => Deno.remove(making, { recursive: true }));
  }
  const dir = await Deno.makeTempDir({ prefix: "sim-datalogger-hub-test-" });
  await cp(TEMPLATE, dir, { recursive: true });
  return dir;
}

/** A fresh migrated PGlite database in a folder of its own; `close` removes it. */
export async function freshPglite(): Promise<SqlPort> {
  const dir = await freshPgliteFolder();
  const db = await openHubStore({ dataDir: dir });
  return {
    ...db,
    async close() {
      await db.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Empties every table but the schema's, so one database serves a file's tests in turn. */
export async function emptyHub(db: SqlPort): Promise<void> {
  await db.exec("truncate hub_laps, hub_bundles, hub_drivers restart identity cascade");
}

/** An answer as a test reads it. */
export interface HubAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** A request to a hub, as a test makes it. */
export interface HubRequest {
  token?: string;
  /** JSON (stringified) or text/bytes as they are. */
  body?: unknown;
}

/** The hub's HTTP app on `db` (emptied first) with its admin; `call` asks it. */
export async function testHub(db: SqlPort, now = new Date("2026-11-28T12:00:00.000Z")) {
  await emptyHub(db);
  const app = new HubApp({ db, now: () => now });
  await app.ensureTeam(ADMIN_TOKEN);
  const http = createHubHttp(app, silentLog);
  const call = async (method: string, path: string, req: HubRequest = {}): Promise<HubAnswer> => {
    const headers: Record<string, string> = {};
    if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
    const body = req.body === undefined
      ? undefined
      : typeof req.body === "string" || req.body instanceof Uint8Array
      ? req.body
      : JSON.stringify(req.body);
    const res = await http.request(`http://hub${path}`, {
      method,
      headers,
      body: body as BodyInit | undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
  };
  /** Adds driver `name` and answers its token. */
  const driver = async (name: string): Promise<string> => {
    const added = await call("POST", "/api/drivers", { token: ADMIN_TOKEN, body: { name } });
    if (added.status !== 201) throw new Error(`adding ${name}: ${JSON.stringify(added.body)}`);
    return String(added.body.token);
  };
  return { app, http, call, driver };
}

/** Packet index of the Suzuka capture's 1 -> 2 lap change (fixtures README). */
const SUZUKA_LAP_END = 6317;

let suzuka: Record<string, unknown> | undefined;

/**
 * The Suzuka fixture's lap, recorded by a logger in memory and exported by
 * its lap exchange, as JSON text parsed back (what a push sends), its
 * circuit named "Suzuka Circuit".
 */
export async function suzukaLapFile(): Promise<Record<string, unknown>> {
  if (suzuka === undefined) {
    const kv = await Deno.openKv(":memory:");
    try {
      const app = await createApp({ kv, now: () => new Date("2026-11-20T18:30:00.000Z") });
      const frames = parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets;
      for (const p of frames.slice(0, SUZUKA_LAP_END + 30)) app.live.ingest(decodeFrame(p));
      await app.live.flush();
      const [lap] = await listLaps(kv, app.live.session!.id);
      const file = JSON.parse(JSON.stringify(await app.laps.exportFile(lap.id)));
      file.lap.track_name = "Suzuka Circuit";
      suzuka = file;
      await app.shutdown();
    } finally {
      kv.close();
    }
  }
  return structuredClone(suzuka!);
}
