/** `export lap ID --motec DIR` and `export session ID --motec DIR`, run as a process. */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { cli } from "../_cli.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { readLd, readLdx } from "../_motec_ld_reader.ts";

Deno.test("the command line writes a lap's and a session's MoTeC log into a folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = join(dir, "store");
    const file = join(dir, "lap.json");
    const lap = minimalLapFile(700, {
      number: 3,
      time_ms: 11_667,
      car_id: 3315,
      finished_at: "2026-11-21T10:00:11.667Z",
    });
    await Deno.writeTextFile(file, JSON.stringify(lap));
    const imported = await cli("import", file, "--data", data);
    assert.equal(imported.code, 0, imported.stderr);

    const out = join(dir, "motec", "new");
    const one = await cli("export", "lap", "1", "--motec", out, "--driver", "Kaz", "--data", data);
    assert.equal(one.code, 0, one.stderr);
    // Named by circuit (none here), session and the lap's finishing time, as JSON and CSV exports.
    const lapBase = "sim-datalogger-lap-1-unnamed-s1-20261121-100011";
    const ldPath = join(out, `${lapBase}.ld`);
    const ldxPath = join(out, `${lapBase}.ldx`);
    assert.equal(one.stderr, `wrote ${ldPath}\nwrote ${ldxPath}\n`);
    const ld = readLd(await Deno.readFile(ldPath));
    assert.equal(ld.header.driver, "Kaz");
    assert.equal(ld.header.vehicle, "McLaren VGT");
    assert.equal(ld.header.shortComment, "Lap 3 - 0:11.667");
    assert.equal(ld.header.date, "21/11/2026");
    assert.equal(ld.header.time, "10:00:00");
    assert.ok(ld.channels.length > 0);
    for (const c of ld.channels) assert.equal(c.count, 700, c.name);
    assert.deepEqual(readLdx(await Deno.readTextFile(ldxPath)).beaconsUs, [11_666_667]);

    const session = await cli("export", "session", "1", "--motec", out, "--data", data);
    assert.equal(session.code, 0, session.stderr);
    // The session's time is when it started: the import's, here.
    const [, sessionLd, sessionLdx] = session.stderr.match(/^wrote (.*\.ld)\nwrote (.*\.ldx)\n$/)!;
    const sessionBase = sessionLd.slice(out.length + 1, -".ld".length);
    assert.match(sessionBase, /^sim-datalogger-session-1-unnamed-\d{8}-\d{6}$/);
    assert.equal(sessionLdx, join(out, `${sessionBase}.ldx`));
    const sld = readLd(await Deno.readFile(sessionLd));
    assert.equal(sld.header.event.session, "Session 1");
    assert.equal(sld.header.driver, "");
    assert.deepEqual(
      [...Deno.readDirSync(out)].map((e) => e.name).sort(),
      [
        `${lapBase}.ld`,
        `${lapBase}.ldx`,
        `${sessionBase}.ld`,
        `${sessionBase}.ldx`,
      ],
    );

    const missing = await cli("export", "session", "9", "--motec", out, "--data", data);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /session 9 not found/);
    const both = await cli("export", "lap", "1", "--motec", out, "--csv", "--data", data);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /--motec .* cannot be combined with --csv or --out/);
    // A name the header cannot hold is refused as the API refuses it, and nothing is written.
    const before = [...Deno.readDirSync(out)].length;
    const long = await cli(
      "export",
      "lap",
      "1",
      "--motec",
      out,
      "--driver",
      "K".repeat(64),
      "--data",
      data,
    );
    assert.equal(long.code, 1);
    assert.match(long.stderr, /--driver .*must be at most 63 characters/);
    assert.equal([...Deno.readDirSync(out)].length, before);
    const noDir = await cli("export", "session", "1", "--data", data);
    assert.notEqual(noDir.code, 0);
    assert.match(noDir.stderr, /--motec <dir>/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
