/** GET /api/laps/{id}/export.ld|ldx and /api/sessions/{id}/export.ld|ldx. */
import { strict as assert } from "node:assert";
import { minimalLapFile } from "../_lap_files.ts";
import { readLd, readLdx } from "../_motec_ld_reader.ts";
import { withServer } from "./_server.ts";
import { lapExportBase, sessionExportBase } from "../../src/app/laps/export_names.ts";

const LAP = minimalLapFile(600, {
  number: 2,
  time_ms: 10_000,
  car_id: 3315,
  finished_at: "2026-11-21T10:00:10.000Z",
});

Deno.test("a lap's and a session's MoTeC log come as two files of one base name", async () => {
  await withServer(async (url, app) => {
    const { lap, session } = await app.laps.importFile(LAP);
    const renamed = await app.sessions.rename(session.id, "Suzuka Circuit");
    // Named as a folder export is: circuit and time, so stores' downloads never collide.
    const lapBase = lapExportBase(lap, "Suzuka Circuit");
    const sessionBase = sessionExportBase(renamed);
    assert.equal(
      lapBase,
      `sim-datalogger-lap-${lap.id}-suzuka-circuit-s${session.id}-20261121-100010`,
    );

    const ld = await fetch(`${url}/api/laps/${lap.id}/export.ld?driver=Kaz`);
    assert.equal(ld.status, 200);
    assert.equal(ld.headers.get("content-type"), "application/octet-stream");
    assert.equal(
      ld.headers.get("content-disposition"),
      `attachment; filename="${lapBase}.ld"`,
    );
    const file = readLd(new Uint8Array(await ld.arrayBuffer()));
    assert.equal(file.header.driver, "Kaz");
    assert.equal(file.header.vehicle, "McLaren VGT");
    assert.equal(file.header.venue, "Suzuka Circuit");
    assert.equal(file.header.shortComment, "Lap 2 - 0:10.000");
    for (const c of file.channels) assert.equal(c.count, 600, c.name);

    const ldx = await fetch(`${url}/api/laps/${lap.id}/export.ldx`);
    assert.equal(ldx.status, 200);
    assert.equal(ldx.headers.get("content-type"), "application/xml; charset=utf-8");
    assert.equal(
      ldx.headers.get("content-disposition"),
      `attachment; filename="${lapBase}.ldx"`,
    );
    assert.deepEqual(readLdx(await ldx.text()).beaconsUs, [10_000_000]);

    const sld = await fetch(`${url}/api/sessions/${session.id}/export.ld`);
    assert.equal(sld.status, 200);
    assert.equal(
      sld.headers.get("content-disposition"),
      `attachment; filename="${sessionBase}.ld"`,
    );
    const sfile = readLd(new Uint8Array(await sld.arrayBuffer()));
    assert.equal(sfile.header.event.session, `Session ${session.id}`);
    assert.equal(sfile.header.driver, "");
    const sldx = await fetch(`${url}/api/sessions/${session.id}/export.ldx`);
    assert.equal(
      sldx.headers.get("content-disposition"),
      `attachment; filename="${sessionBase}.ldx"`,
    );
    assert.deepEqual(readLdx(await sldx.text()).details["Fastest Lap"], "1");
  });
});

Deno.test("unknown ids answer 404 and a bad query 400, as problem+json", async () => {
  await withServer(async (url, app) => {
    const { lap } = await app.laps.importFile(LAP);
    for (
      const [path, status, detail] of [
        ["/api/laps/99/export.ld", 404, /lap 99 not found/],
        ["/api/sessions/99/export.ldx", 404, /session 99 not found/],
        [
          `/api/laps/${lap.id}/export.ld?driver=${"x".repeat(64)}`,
          400,
          /driver must be at most 63/,
        ],
        [`/api/laps/${lap.id}/export.ldx?drivr=x`, 400, /drivr is not a parameter/],
        ["/api/laps/0/export.ld", 400, /id/],
      ] as const
    ) {
      const res = await fetch(url + path);
      assert.equal(res.status, status, path);
      assert.equal(res.headers.get("content-type"), "application/problem+json", path);
      assert.match((await res.json()).detail, detail, path);
    }
  });
});
