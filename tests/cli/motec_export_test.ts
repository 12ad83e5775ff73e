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
    const ldPath = join(out, "sim-datalogger-lap-1.ld");
    const ldxPath = join(out, "sim-datalogger-lap-1.ldx");
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
    const sld = readLd(await Deno.readFile(join(out, "sim-datalogger-session-1.ld")));
    assert.equal(sld.header.event.session, "Session 1");
    assert.equal(sld.header.driver, "");
    assert.deepEqual(
      [...Deno.readDirSync(out)].map((e) => e.name).sort(),
      [
        "sim-datalogger-lap-1.ld",
        "sim-datalogger-lap-1.ldx",
        "sim-datalogger-session-1.ld",
        "sim-datalogger-session-1.ldx",
      ],
    );

    const missing = await cli("export", "session", "9", "--motec", out, "--data", data);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /session 9 not found/);
    const both = await cli("export", "lap", "1", "--motec", out, "--csv", "--data", data);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /--motec .* cannot be combined with --csv or --out/);
    const noDir = await cli("export", "session", "1", "--data", data);
    assert.notEqual(noDir.code, 0);
    assert.match(noDir.stderr, /--motec <dir>/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
