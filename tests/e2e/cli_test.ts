import { strict as assert } from "node:assert";
import { join } from "node:path";
import { cli } from "../_cli.ts";
import { gzipSync } from "node:zlib";
import { minimalLapFile } from "../_lap_files.ts";
import { noFixtures, readGzFixture, SHARED_FIXTURES } from "../_fixtures.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { buildRecordFile, mixWithGarbage } from "../_capture_files.ts";

const lapFile = minimalLapFile(700, { number: 3, time_ms: 61500, car_id: 3315 });

Deno.test("import and export a lap through the command line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = join(dir, "store");
    const file = join(dir, "lap.json");
    await Deno.writeTextFile(file, JSON.stringify(lapFile));
    const imported = await cli("import", file, "--data", data);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(
      imported.stdout,
      /imported lap 3 \(1:01\.500, 700 samples\) as lap 1 in new session 1/,
    );

    const json = await cli("export", "lap", "1", "--data", data);
    assert.equal(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout);
    assert.equal(doc.format, "sim-datalogger-lap");
    assert.deepEqual(doc.lap.samples.speed, lapFile.lap.samples.speed);

    const csvPath = join(dir, "lap.csv");
    const csv = await cli("export", "lap", "1", "--csv", "--out", csvPath, "--data", data);
    assert.equal(csv.code, 0, csv.stderr);
    const text = await Deno.readTextFile(csvPath);
    assert.ok(text.startsWith('"Format","MoTeC CSV File"\r\n'));
    assert.match(text, /"Vehicle","McLaren VGT"/);

    const missing = await cli("export", "lap", "9", "--data", data);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /lap 9 not found/);

    await Deno.writeTextFile(file, JSON.stringify({ ...lapFile, version: 7 }));
    const refused = await cli("import", file, "--data", data);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /rejected: \$\.version/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every command has --help, and bad flags are refused with the rule", async () => {
  for (
    const cmd of [[], ["start"], ["serve"], ["replay"], ["demo"], ["import"], ["export", "lap"], [
      "export",
      "bundle",
    ]]
  ) {
    const res = await cli(...cmd, "--help");
    assert.equal(res.code, 0, `${cmd.join(" ")}: ${res.stderr}`);
    assert.match(res.stdout, /Usage: sim-datalogger/);
  }
  const bad = await cli("serve", "--format", "Z");
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /must be one of A, B, ~, C/);
  const port = await cli("serve", "--port", "70000");
  assert.notEqual(port.code, 0);
  assert.match(port.stderr, /must be a port number/);
});

Deno.test("import and export a track bundle through the command line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = join(dir, "store");
    const v2 = join(dir, "lago.json");
    await Deno.writeTextFile(
      v2,
      JSON.stringify({
        format: "sim-datalogger-track-bundle",
        version: 2,
        meta: { track: "Lago", runs: 2, updated_at: "2026-01-01T00:00:00Z" },
        edges: Array.from({ length: 12 }, (_, i) => ({
          x: i * 1.0,
          z: 5,
          side: "L",
          votes: { straddle: [1, 2] },
          run: 2,
        })),
        finish_crossings: [],
      }),
    );
    const first = await cli("import", v2, "--track", "Lago East", "--data", data);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /imported bundle "Lago East" as lago-east/);
    const out = join(dir, "out.json");
    const exported = await cli("export", "bundle", "lago-east", "-o", out, "--data", data);
    assert.equal(exported.code, 0, exported.stderr);
    const doc = JSON.parse(await Deno.readTextFile(out));
    assert.equal(doc.version, 4);
    assert.equal(doc.edges.length, 12);
    const again = await cli("import", out, "--data", data);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /\(\+0\)/);
    const other = join(dir, "other.json");
    await Deno.writeTextFile(other, JSON.stringify({ format: "something-else" }));
    const refused = await cli("import", other, "--data", data);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /has format/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "import takes a capture: the summary names packets, laps and the new session",
  ignore: noFixtures,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const data = join(dir, "store");
      const capture = join(SHARED_FIXTURES, "gt7/suzuka-full-lap.A.gt7.gz");
      const res = await cli("import", capture, "--data", data);
      assert.equal(res.code, 0, res.stderr);
      // No terminal: no progress bar, only the summary.
      assert.equal(res.stderr, "");
      assert.match(
        res.stdout,
        new RegExp(
          `^imported ${capture.replaceAll(".", "\\.")} \\(capture, format A, decrypted, gzip\\): ` +
            "6,420 packets read, 0 rejected, 1 lap stored( \\(0 incomplete\\))? in new session 1\n" +
            "new lap ids: 1 \\(session 1\\)\n" +
            // Named from its reference line on a fresh store.
            'session 1 identified as "Suzuka Circuit"\n' +
            "note: ignored 224 bytes after the last whole packet\n$",
        ),
      );
      const json = await cli("export", "lap", "1", "--data", data);
      assert.equal(json.code, 0, json.stderr);
      const lap = JSON.parse(json.stdout).lap;
      assert.equal(lap.time_ms, 99036);
      assert.equal(lap.samples.t.length, 5942);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "import takes a gzip record file with garbage and a truncated last entry",
  ignore: noFixtures,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const packets = parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets;
      const startMs = Date.UTC(2026, 10, 22, 20, 15, 0);
      const mixed = mixWithGarbage(packets, { startMs, periodMs: 17, every: 10, seed: 9 });
      const bytes = buildRecordFile(startMs, [...mixed.entries, [startMs + 1e6, packets[1]]], 50);
      const file = join(dir, "session.rec.gz");
      await Deno.writeFile(file, gzipSync(bytes));
      const res = await cli("import", file, "--data", join(dir, "store"));
      assert.equal(res.code, 0, res.stderr);
      assert.equal(mixed.garbage.length, 642);
      assert.match(
        res.stdout,
        new RegExp(
          "^imported .*session\\.rec\\.gz \\(record file, gzip\\): 7,062 packets read, 642 rejected, " +
            "1 lap stored( \\(0 incomplete\\))? in new session 1\n" +
            "new lap ids: 1 \\(session 1\\)\n" +
            'session 1 identified as "Suzuka Circuit"\n' +
            "note: the file ends in a truncated entry \\(256 bytes; a recorder stopped mid-write\\): " +
            "it was ignored, and everything before it imported\n$",
        ),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("import refuses a file that is none of the kinds it takes, saying which it takes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "notes.txt");
    await Deno.writeTextFile(file, "lap notes: brake later into turn 1\n".repeat(20));
    const res = await cli("import", file, "--data", join(dir, "store"));
    assert.equal(res.code, 1);
    assert.match(
      res.stderr,
      /notes\.txt: unrecognised capture of 700 bytes: .*; expected a JSON lap file or track bundle, or a capture of GT7 packets \(\.gt7 encrypted as the console sent them, or \.gt7\.gz decrypted\), or a record file written by --record \(plain or gzip\)\n$/,
    );
    const missing = await cli("import", join(dir, "absent.gt7"), "--data", join(dir, "store"));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*absent\.gt7/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
