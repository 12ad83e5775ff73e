/**
 * The file service: one import that tells bundles, lap files and captures
 * apart by content, the dashboard's bundle-only import, and exports to a
 * folder, a path or a stream. Files live in a temporary folder.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { type App, createApp } from "../../src/app/create_app.ts";
import { bundleFilename, type ImportProgress, UnreadableFile } from "../../src/app/laps/files.ts";
import { EmptyFile } from "../../src/app/laps/file_content.ts";
import { lapExportFilename } from "../../src/app/laps/export_names.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { ImportRejected } from "../../src/core/errors.ts";
import { listBundleHeads } from "../../src/storage/bundles.ts";
import { listSessions } from "../../src/storage/sessions.ts";
import { syntheticBundle } from "../_bundles.ts";
import { noFixtures, readFixture } from "../_fixtures.ts";
import { minimalLapFile } from "../_lap_files.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");

async function withFiles(fn: (app: App, dir: string) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const dir = await Deno.makeTempDir();
  try {
    await fn(await createApp({ kv, now: () => NOW }), dir);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const BUNDLE = syntheticBundle({ cells: 12, sources: ["a1b2c3"], runs: 1, seed: 3 });

Deno.test("importFile tells a bundle from a lap file by its format, relative to dir", async () => {
  await withFiles(async (app, dir) => {
    await Deno.writeTextFile(join(dir, "b.json"), JSON.stringify(BUNDLE));
    await Deno.writeTextFile(join(dir, "l.json"), JSON.stringify(minimalLapFile(120)));
    const bundle = await app.files.importFile("b.json", { dir, track: "Lago East" });
    assert.equal(bundle.kind, "bundle");
    assert.equal(bundle.kind === "bundle" && bundle.result.slug, "lago-east");
    assert.equal(bundle.kind === "bundle" && bundle.result.edges, 12);
    const lap = await app.files.importFile(join(dir, "l.json"));
    assert.equal(lap.kind, "lap");
    assert.equal(lap.kind === "lap" && lap.result.lap.total_ticks, 120);
    assert.deepEqual((await listSessions(app.kv)).map((s) => s.kind), ["imported"]);
  });
});

Deno.test("importFile refuses what it cannot take, naming the file, and stores nothing", async () => {
  await withFiles(async (app, dir) => {
    const other = join(dir, "other.json");
    await Deno.writeTextFile(other, JSON.stringify({ format: "something-else" }));
    await assert.rejects(
      () => app.files.importFile(other),
      new Error(
        `${other} has format "something-else"; expected "sim-datalogger-track-bundle" ` +
          `(a track bundle) or "sim-datalogger-lap" (a lap file), or gt7dashboard's save ` +
          "(a JSON list of laps with data_* arrays)",
      ),
    );
    const notes = join(dir, "notes.txt");
    await Deno.writeTextFile(notes, "lap notes: brake later into turn 1\n".repeat(20));
    await assert.rejects(
      () => app.files.importFile(notes),
      (err: Error) => err.message.startsWith(`${notes}: unrecognised capture of 700 bytes: `),
    );
    const broken = join(dir, "broken.json");
    await Deno.writeTextFile(broken, '{"format": ');
    await assert.rejects(
      () => app.files.importFile(broken),
      (err: Error) =>
        err instanceof SyntaxError && err.message.startsWith(`${broken} is not valid JSON: `),
    );
    const absent = join(dir, "absent.gt7");
    const unreadable = await app.files.importFile(absent).catch((err) => err);
    assert.ok(unreadable instanceof UnreadableFile);
    assert.ok(unreadable.message.startsWith(`cannot read ${absent}: `), unreadable.message);
    assert.equal(unreadable.message, `cannot read ${absent}: ${unreadable.reason}`);
    assert.deepEqual(await listBundleHeads(app.kv), []);
    assert.deepEqual(await listSessions(app.kv), []);
  });
});

Deno.test("an empty file is refused as empty, by name, by both imports; nothing is stored", async () => {
  await withFiles(async (app, dir) => {
    const empty = join(dir, "empty.json");
    await Deno.writeFile(empty, new Uint8Array());
    const gzipped = join(dir, "empty.json.gz");
    const nothing = new Blob([]).stream().pipeThrough(new CompressionStream("gzip"));
    await Deno.writeFile(gzipped, await new Response(nothing).bytes());
    const anything = "expected a JSON lap file or track bundle, or a capture of GT7 packets " +
      "(.gt7 encrypted as the console sent them, or .gt7.gz decrypted), or a record file " +
      "written by --record (plain or gzip)";
    const refused = async (fn: () => Promise<unknown>, message: string) => {
      const err = await fn().then(() => null, (e: Error) => e);
      assert.ok(err instanceof EmptyFile, String(err));
      assert.equal(err.message, message);
    };
    await refused(() => app.files.importFile(empty), `${empty}: the file is empty; ${anything}`);
    await refused(
      () => app.files.importFile("empty.json.gz", { dir }),
      `${gzipped}: the file is empty once gunzipped; ${anything}`,
    );
    const bundle = "expected a track bundle (JSON)";
    await refused(
      () => app.files.importBundleFile(empty),
      `${empty}: the file is empty; ${bundle}`,
    );
    await refused(
      () => app.files.importBundleFile(gzipped),
      `${gzipped}: the file is empty once gunzipped; ${bundle}`,
    );
    assert.deepEqual(await listBundleHeads(app.kv), []);
    assert.deepEqual(await listSessions(app.kv), []);
  });
});

Deno.test("importBundleFile takes any JSON as a bundle and reports read, parse, import, done", async () => {
  await withFiles(async (app, dir) => {
    await Deno.writeTextFile(join(dir, "bad.json"), JSON.stringify({ format: "nope" }));
    await assert.rejects(
      () => app.files.importBundleFile("bad.json", { dir }),
      (err: unknown) => err instanceof ImportRejected && err.issues[0].path === "$.format",
    );
    const text = JSON.stringify(BUNDLE);
    await Deno.writeTextFile(join(dir, "b.json"), text);
    const seen: ImportProgress[] = [];
    const result = await app.files.importBundleFile("b.json", {
      dir,
      onProgress: (p) => seen.push(p),
    });
    assert.equal(result.edges, 12);
    const size = new TextEncoder().encode(text).length;
    assert.deepEqual(seen.map((p) => [p.phase, p.bytes, p.total]), [
      ["read", 0, size],
      ["read", size, size],
      ["parse", size, size],
      ["import", size, size],
      ["done", size, size],
    ]);
  });
});

Deno.test({
  name: "importFile records a capture's laps and reports its packets as they go",
  ignore: noFixtures,
  async fn() {
    await withFiles(async (app, dir) => {
      const path = join(dir, "suzuka.gt7.gz");
      await Deno.writeFile(path, readFixture("gt7/suzuka-full-lap.A.gt7.gz"));
      const seen: ImportProgress[] = [];
      const imported = await app.files.importFile(path, { onProgress: (p) => seen.push(p) });
      assert.equal(imported.kind, "capture");
      if (imported.kind !== "capture") return;
      assert.equal(imported.file.compressed, true);
      assert.equal(imported.result.datagrams, 6420);
      assert.equal(imported.result.laps, 1);
      const record = seen.filter((p) => p.phase === "record");
      assert.deepEqual(record.at(-1)?.phase === "record" && record.at(-1)?.packets, {
        done: 6420,
        total: 6420,
        rejected: 0,
        laps: 1,
      });
      assert.equal(seen.at(-1)?.phase, "done");
    });
  },
});

Deno.test("exports go into a folder under their own name, to a path, or onto a stream", async () => {
  await withFiles(async (app, dir) => {
    const { slug } = await app.bundles.import(BUNDLE);
    const expected = serialiseBundle(await app.bundles.export(slug)) + "\n";
    const inDir = await app.files.exportBundle(slug, { dir });
    assert.equal(inDir, join(dir, bundleFilename(slug)));
    assert.equal(await Deno.readTextFile(inDir!), expected);
    let streamed = "";
    const decoder = new TextDecoder();
    const stream = new WritableStream<Uint8Array>({
      write: (c) => void (streamed += decoder.decode(c, { stream: true })),
    });
    assert.equal(await app.files.exportBundle(slug, { stream }), null);
    assert.equal(streamed, expected);

    const { lap } = await app.laps.importFile(
      minimalLapFile(120, { finished_at: "2026-11-24T10:01:02.345Z", track_name: "Lago Maggiore" }),
    );
    const json = await app.files.exportLap(lap.id, "json", { dir });
    assert.equal(
      json,
      join(dir, `sim-datalogger-lap-${lap.id}-lago-maggiore-s1-20261124-100102.json`),
    );
    assert.deepEqual(JSON.parse(await Deno.readTextFile(json!)), await app.laps.exportFile(lap.id));
    const csvPath = join(dir, "lap.csv");
    assert.equal(await app.files.exportLap(lap.id, "csv", { path: csvPath }), csvPath);
    const csv = await app.laps.exportCsv(lap.id);
    assert.equal(await Deno.readTextFile(csvPath), [...csv.lines].join(""));
    assert.equal(
      await app.files.exportLap(lap.id, "csv", { dir }),
      join(dir, `sim-datalogger-lap-${lap.id}-lago-maggiore-s1-20261124-100102.csv`),
    );
  });
});

Deno.test("lap export names differ by circuit, session and time; an unnamed circuit says so", () => {
  const lap = { id: 1, session_id: 1, finished_at: "2026-11-24T10:01:02.345Z" };
  assert.equal(
    lapExportFilename(lap, "Suzuka Circuit", "json"),
    "sim-datalogger-lap-1-suzuka-circuit-s1-20261124-100102.json",
  );
  assert.equal(
    lapExportFilename({ ...lap, session_id: 4 }, "", "csv"),
    "sim-datalogger-lap-1-unnamed-s4-20261124-100102.csv",
  );
  assert.equal(
    lapExportFilename(
      { ...lap, finished_at: "2026-11-27T00:00:00.000Z" },
      "Suzuka Circuit",
      "json",
    ),
    "sim-datalogger-lap-1-suzuka-circuit-s1-20261127-000000.json",
  );
  // No time known (a version 1 file imported without one): the rest still names it.
  assert.equal(
    lapExportFilename({ ...lap, finished_at: "" }, "Suzuka Circuit", "json"),
    "sim-datalogger-lap-1-suzuka-circuit-s1.json",
  );
});

Deno.test("MoTeC logs of two stores' lap 1 and session 1 exported into one folder keep apart", async () => {
  const dir = await Deno.makeTempDir();
  const kvs = [await Deno.openKv(":memory:"), await Deno.openKv(":memory:")];
  try {
    const names: string[] = [];
    for (const [k, track] of ["Suzuka Circuit", "Lago Maggiore"].entries()) {
      const app = await createApp({ kv: kvs[k], now: () => NOW });
      const { lap, session } = await app.laps.importFile(
        minimalLapFile(120, { finished_at: "2026-11-24T10:01:02.345Z", track_name: track }),
      );
      assert.deepEqual([lap.id, session.id], [1, 1]);
      names.push(...await app.files.exportMotec("lap", lap.id, dir));
      names.push(...await app.files.exportMotec("session", session.id, dir));
    }
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      names.map((p) => p.slice(dir.length + 1)).sort(),
    );
    assert.equal(new Set(names).size, 8, "no export replaced another");
    assert.equal(
      names[0],
      join(dir, "sim-datalogger-lap-1-suzuka-circuit-s1-20261124-100102.ld"),
      "a lap's log is named as its JSON and CSV exports are",
    );
    assert.match(names[2], /\/sim-datalogger-session-1-suzuka-circuit-\d{8}-\d{6}\.ld$/);
  } finally {
    for (const kv of kvs) kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
