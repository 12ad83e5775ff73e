/**
 * The lap import of every format at the application level, over an
 * in-memory store: gt7dashboard's save stored lap for lap in one named
 * session; laps exported as a lap file, MoTeC CSV and .ld imported again
 * with the same lap time and sample count; other rates noted; missing
 * channels kept absent; malformed and truncated files storing nothing.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import { ImportRejected } from "../../src/core/errors.ts";
import { encodeLd } from "../../src/core/motec/ld_writer.ts";
import { getLap } from "../../src/storage/laps.ts";
import { listSessions } from "../../src/storage/sessions.ts";
import { noFixtures, readFixture, SHARED_REFERENCE } from "../_fixtures.ts";
import { join } from "node:path";

const NOW = new Date("2026-11-21T12:00:00.000Z");
const SAVE = "gt7/broad-bean-raceway-4-laps.json";

async function withApp(fn: (app: App, kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(await createApp({ kv, now: () => NOW }), kv);
  } finally {
    kv.close();
  }
}

const text = (s: string) => new TextEncoder().encode(s);

async function csvBytes(app: App, id: number): Promise<Uint8Array> {
  return text([...(await app.laps.exportCsv(id)).lines].join(""));
}

Deno.test({
  name: "gt7dashboard's save: 4 laps in one imported session, named as live laps are, noted",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, kv) => {
      const r = await app.laps.importBytes(readFixture(SAVE));
      assert.equal(r.format, "gt7dashboard");
      const sid = r.session.id;
      assert.deepEqual(r.imported, [
        { id: 1, session_id: sid, number: 5, time_ms: 32_722 },
        { id: 2, session_id: sid, number: 4, time_ms: 32_559 },
        { id: 3, session_id: sid, number: 3, time_ms: 32_679 },
        { id: 4, session_id: sid, number: 2, time_ms: 32_651 },
      ]);
      assert.deepEqual(r.skipped, []);
      assert.equal(r.lap.id, 1);
      assert.equal(r.lap.total_ticks, 1963);
      assert.equal(r.session.lap_count, 4);
      assert.equal(r.session.kind, "imported");
      assert.equal(r.session.car_id, 1549);
      assert.equal(r.session.notes, "Imported from a gt7dashboard save.");
      // The four laps were driven the other way round (reference_real_data_test.ts).
      assert.equal(r.session.track_name, "BB Raceway (Reverse)");
      assert.notEqual(r.session.track_source, "");
      assert.notEqual(r.session.track_source, "user");
      const stored = await getLap(kv, 1);
      assert.equal(stored?.samples.body_height, undefined);
      assert.equal(stored?.min_body_height, 0);
    });
  },
});

Deno.test({
  name: "round trips: JSON, CSV and .ld exports import again with the same lap time and samples",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const first = await app.laps.importBytes(readFixture(SAVE));
      const ids = first.imported.map((l) => l.id);
      const facts = async (id: number) => {
        const lap = await app.sessions.lap(id);
        return { time_ms: lap.time_ms, ticks: lap.total_ticks, number: lap.number };
      };
      const original = await facts(ids[1]);

      const json = await app.laps.importBytes(
        text(JSON.stringify(await app.laps.exportFile(ids[1]))),
      );
      assert.equal(json.format, "lap-file");
      assert.deepEqual(await facts(json.lap.id), original);

      const csv = await app.laps.importBytes(await csvBytes(app, ids[1]));
      assert.equal(csv.format, "motec-csv");
      assert.deepEqual(await facts(csv.lap.id), original);
      assert.equal(csv.session.track_name, "BB Raceway (Reverse)");
      // Absent in the save, written as empty cells, absent again.
      assert.equal((await app.sessions.lap(csv.lap.id)).samples.body_height, undefined);

      const { log } = await app.laps.exportSessionMotec(first.session.id);
      const ld = await app.laps.importBytes(encodeLd(log));
      assert.equal(ld.format, "motec-ld");
      assert.deepEqual(
        await Promise.all(ld.imported.map((l) => facts(l.id))),
        await Promise.all(ids.map(facts)),
      );
      const a = await app.sessions.lap(ids[2]);
      const b = await app.sessions.lap(ld.imported[2].id);
      // Positions come back through the GPS channels to the centimetre.
      for (let i = 0; i < a.samples.pos_x.length; i += 97) {
        assert.ok(Math.abs(a.samples.pos_x[i] - b.samples.pos_x[i]) <= 0.011);
        assert.ok(Math.abs(a.samples.pos_z[i] - b.samples.pos_z[i]) <= 0.011);
      }
    });
  },
});

Deno.test({
  name: "a CSV at 20 Hz with channels missing: resampled to 60 Hz, the rate noted, gaps absent",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const first = await app.laps.importBytes(readFixture(SAVE));
      const lines = new TextDecoder().decode(await csvBytes(app, first.lap.id)).split("\r\n");
      const start = lines.findIndex((l) => l.startsWith('"Time"'));
      const names = lines[start].split(",");
      const keep = names.map((n) => n !== '"Engine RPM"' && n !== '"Gear"');
      const cut = (l: string) => l.split(",").filter((_, k) => keep[k]).join(",");
      const rows = lines.slice(start + 4).filter((l) => l !== "");
      const thinned = [
        ...lines.slice(0, start),
        cut(lines[start]),
        cut(lines[start + 1]),
        "",
        "",
        ...rows.filter((_, i) => i % 3 === 2).map(cut),
        "",
      ].join("\r\n");
      const r = await app.laps.importBytes(text(thinned));
      const lap = await app.sessions.lap(r.lap.id);
      assert.equal(lap.time_ms, 32_722);
      assert.equal(lap.total_ticks, 1963);
      assert.equal(lap.samples.rpm, undefined);
      assert.equal(lap.samples.gear, undefined);
      assert.equal(
        r.session.notes,
        "Imported from a MoTeC CSV. Recorded at 20 Hz, resampled to the lap file's 60 Hz.",
      );
    });
  },
});

Deno.test({
  name: "malformed, truncated and unusable files are refused whole and store nothing",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, kv) => {
      const good = await app.laps.importBytes(readFixture(SAVE));
      const before = (await listSessions(kv)).length;
      const { log } = await app.laps.exportSessionMotec(good.session.id);
      const ld = encodeLd(log);
      const csv = new TextDecoder().decode(await csvBytes(app, good.lap.id));
      const refusals: [string, Uint8Array, RegExp][] = [
        ["a truncated .ld", ld.subarray(0, ld.length - 5000), /data runs past the end/],
        [
          "a truncated CSV",
          text(csv.slice(0, csv.length - 40)),
          /^line \d+: MoTeC CSV: has \d+ cells/,
        ],
        ["a CSV cell not a number", text(csv.replace('"32.1167"', '"fast"')), /is not a number/],
        ["plain text", text("lap notes: brake later\n"), /not a lap file of a known format/],
        [
          "MoTeC i2's 1 Hz export: no pedal position, no positions",
          Deno.readFileSync(join(SHARED_REFERENCE, "motec-i2-export-1hz.csv")),
          /^\$: recognised as MoTeC CSV, but no lap can be imported: .*lap 2: missing channels: Brake Pos, Pos X, Pos Z/,
        ],
      ];
      for (const [why, bytes, message] of refusals) {
        const err = await app.laps.importBytes(bytes).then(() => null, (e) => e);
        assert.ok(err instanceof ImportRejected, `${why}: ${err}`);
        assert.match(
          err.issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`)
            .join("; "),
          message,
          why,
        );
        assert.equal((await listSessions(kv)).length, before, `${why} stored something`);
      }
    });
  },
});

Deno.test({
  name: "the import command's file service takes a gt7dashboard save, a CSV and a .ld by content",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const dir = await Deno.makeTempDir();
      try {
        // Names that say nothing of the format: content decides.
        const save = join(dir, "laps.dat");
        await Deno.writeFile(save, readFixture(SAVE));
        const first = await app.files.importFile(save);
        assert.equal(first.kind, "lap");
        if (first.kind !== "lap") return;
        assert.equal(first.result.imported.length, 4);
        const csv = join(dir, "one.bin");
        await Deno.writeFile(csv, await csvBytes(app, first.result.lap.id));
        const fromCsv = await app.files.importFile(csv);
        assert.equal(fromCsv.kind === "lap" && fromCsv.result.format, "motec-csv");
        const { log } = await app.laps.exportSessionMotec(first.result.session.id);
        const ld = join(dir, "log.json");
        await Deno.writeFile(ld, encodeLd(log));
        const fromLd = await app.files.importFile(ld);
        assert.equal(fromLd.kind === "lap" && fromLd.result.imported.length, 4);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  },
});

Deno.test({
  name: "a CSV or .ld without a venue is named as live laps are, not left unnamed",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const first = await app.laps.importBytes(readFixture(SAVE));
      const csv = new TextDecoder().decode(await csvBytes(app, first.lap.id))
        .replace('"Venue","BB Raceway (Reverse)"', '"Venue",""');
      const fromCsv = await app.laps.importBytes(text(csv));
      assert.equal(fromCsv.session.track_name, "BB Raceway (Reverse)");
      assert.equal(fromCsv.session.track_source, first.session.track_source);
      const { log } = await app.laps.exportSessionMotec(first.session.id);
      const fromLd = await app.laps.importBytes(encodeLd({ ...log, venue: "" }));
      assert.equal(fromLd.session.track_name, "BB Raceway (Reverse)");
      assert.equal(fromLd.session.track_source, first.session.track_source);
    });
  },
});
