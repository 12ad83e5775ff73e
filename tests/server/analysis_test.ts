import { strict as assert } from "node:assert";
import type { App } from "../../src/app/create_app.ts";
import { compareLaps } from "../../src/core/analysis/compare.ts";
import { consistency } from "../../src/core/analysis/consistency.ts";
import { cornerReport } from "../../src/core/analysis/corner_report.ts";
import { lapCorners } from "../../src/core/analysis/corners.ts";
import { referenceCornerMap } from "../../src/core/analysis/circuit_corners.ts";
import { configurationById } from "../../src/core/catalog/tracks.ts";
import { traceOf } from "../../src/core/analysis/lap_trace.ts";
import { bestSectors } from "../../src/core/analysis/sectors.ts";
import type { Corner } from "../../src/core/bundle/types.ts";
import { openCaptureFile } from "../../src/core/gt7/capture_file.ts";
import type { LapSamples } from "../../src/core/laps/columns.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { FORMAT } from "../core/bundle/arbitraries.ts";
import { broadBeanLaps } from "../core/analysis/_laps.ts";
import { noFixtures, readFixture } from "../_fixtures.ts";
import { testLap, testSession } from "../_stored_laps.ts";
import { saveLap } from "../../src/storage/laps.ts";
import { withServer } from "./_server.ts";

const NOW = new Date("2026-11-24T12:00:00Z");
const BROAD_BEAN = "Broad Bean Raceway";
const CAR = 1549;

async function get(url: string) {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
}

async function send(url: string, method: string, body: unknown) {
  const res = await fetch(url, { method, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** A value as it comes back through JSON. */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** Imports `samples` as a lap file (its own session) named `track`; returns the stored lap. */
async function importLap(
  url: string,
  app: App,
  number: number,
  timeMs: number,
  samples: LapSamples,
  track: string | null,
  car = CAR,
): Promise<Lap> {
  const lap = { number, time_ms: timeMs, car_id: car, samples };
  const res = await send(`${url}/api/laps/import`, "POST", {
    format: "sim-datalogger-lap",
    version: 2,
    lap,
  });
  assert.equal(res.status, 201);
  if (track !== null) {
    const named = await send(`${url}/api/sessions/${res.body.session.id}`, "PATCH", {
      name: track,
    });
    assert.equal(named.status, 200);
  }
  return await app.sessions.lap(res.body.lap.id);
}

/** Broad Bean's maps both ways round, as a session named "Broad Bean Raceway" is offered them. */
function broadBeanMaps() {
  return ["1fb373", "092b5e"].map((id) => referenceCornerMap(configurationById(id)!)!);
}

/** The four Broad Bean laps, each in a session named after the circuit, as stored. */
async function broadBean(url: string, app: App): Promise<Lap[]> {
  const out: Lap[] = [];
  for (const [k, l] of broadBeanLaps().entries()) {
    out.push(await importLap(url, app, k + 1, l.time_ms, l.samples, BROAD_BEAN));
  }
  return out;
}

/** Broad Bean lap 1 with 40 samples lost after sample 500: incomplete. */
function holed(): LapSamples {
  const samples = broadBeanLaps()[0].samples as unknown as Record<string, number[]>;
  const out: Record<string, number[]> = {};
  for (const [name, values] of Object.entries(samples)) {
    out[name] = [...values.slice(0, 500), ...values.slice(540)];
  }
  return out as unknown as LapSamples;
}

/**
 * One unnamed live session holding, in car {@linkcode CAR}, the four Broad
 * Bean laps (numbers 1 to 4), lap 1 with a hole (incomplete) and the fastest
 * time of all, and the first 600 samples of lap 2 as a complete lap the span
 * guard keeps out; and lap 3 once more in car 1, with a hole. Returns the
 * session and its laps in that order.
 */
async function oneSession(app: App): Promise<{ session: number; laps: Lap[] }> {
  const session = await testSession(app.kv, "", CAR);
  const bean = broadBeanLaps();
  const short = Object.fromEntries(
    Object.entries(bean[1].samples).map(([k, v]) => [k, (v as number[]).slice(0, 600)]),
  ) as unknown as LapSamples;
  const stored: Lap[] = [];
  const store = async (samples: LapSamples, time_ms: number, car_id = CAR, complete = true) => {
    const lap = testLap(samples, { time_ms, car_id, complete, number: stored.length + 1 });
    stored.push(await app.sessions.lap((await saveLap(app.kv, session.id, lap)).lap.id));
  };
  for (const l of bean) await store(l.samples, l.time_ms);
  await store(holed(), 30_000, CAR, false);
  await store(short, 12_000);
  await store(holed(), 31_000, 1, false);
  return { session: session.id, laps: stored };
}

/** Imports the Suzuka capture and names its session; returns its one lap. */
async function suzuka(url: string, app: App): Promise<Lap> {
  const result = await app.laps.importCapture(
    openCaptureFile(readFixture("gt7/suzuka-full-lap.A.gt7.gz")),
  );
  assert.equal(result.sessions.length, 1);
  const id = result.sessions[0];
  await send(`${url}/api/sessions/${id}`, "PATCH", { name: "Suzuka Circuit" });
  const [summary] = await app.sessions.laps(id);
  return await app.sessions.lap(summary.id);
}

/** Answers 400 whose issues' paths are `paths`, the first matching `rule`. */
async function refused(url: string, paths: string[], rule: RegExp): Promise<void> {
  const r = await get(url);
  assert.equal(r.status, 400, url);
  assert.equal(r.type, "application/problem+json");
  assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), paths, url);
  assert.match(r.body.errors[0].message, rule, url);
}

Deno.test({
  name: "compare over the API gives the engine's numbers on the Broad Bean laps",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const laps = await broadBean(url, app);
      const ids = laps.map((l) => l.id).join(",");
      const res = await get(`${url}/api/analysis/compare?laps=${ids}`);
      assert.equal(res.status, 200);
      // The fastest complete lap is the reference by default: lap 2, 32.559 s.
      assert.equal(res.body.ref, laps[1].id);
      assert.deepEqual(
        res.body,
        json(compareLaps({ ref: laps[1], laps, circuit: broadBeanMaps() })),
      );
      assert.equal(res.body.distance.length, 1705);
      for (const [k, l] of laps.entries()) {
        const atLine = res.body.laps[k].delta_s.at(-1)!;
        const game = (l.time_ms - laps[1].time_ms) / 1000;
        assert.ok(Math.abs(atLine - game) <= 1 / 60, `lap ${k + 1}: ${atLine} s vs ${game} s`);
      }
      assert.deepEqual(res.body.laps.map((l: { delta_s: number[] }) => l.delta_s.at(-1)), [
        0.15,
        0,
        0.117,
        0.083,
      ]);
      const asked = await get(
        `${url}/api/analysis/compare?laps=${laps[0].id},${laps[3].id}&ref=${
          laps[2].id
        }&step=5&channels=speed,gear,rpm`,
      );
      assert.equal(asked.status, 200);
      assert.deepEqual(
        asked.body,
        json(compareLaps({
          ref: laps[2],
          laps: [laps[0], laps[3]],
          step: 5,
          channels: ["speed", "gear", "rpm"],
          circuit: broadBeanMaps(),
        })),
      );
    }, { now: NOW });
  },
});

Deno.test({
  name: "compare takes incomplete and unnamed laps, refuses other circuits and bad parameters",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const laps = await broadBean(url, app);
      const broken = await importLap(url, app, 5, 32_000, holed(), BROAD_BEAN);
      assert.equal(broken.complete, false);
      // Far from every circuit the logger knows, so the import leaves it unnamed.
      const nowhere = { ...laps[0].samples, pos_x: laps[0].samples.pos_x.map((x) => x + 50_000) };
      const unnamed = await importLap(url, app, 6, laps[0].time_ms, nowhere, null);
      assert.equal((await app.sessions.get(unnamed.session_id)).track_name, "");
      const res = await get(
        `${url}/api/analysis/compare?laps=${broken.id},${unnamed.id},${laps[3].id}`,
      );
      assert.equal(res.status, 200);
      // The incomplete lap is the fastest asked for, but never the reference by default.
      assert.equal(res.body.ref, laps[3].id);
      assert.deepEqual(
        res.body,
        json(
          compareLaps({ ref: laps[3], laps: [broken, unnamed, laps[3]], circuit: broadBeanMaps() }),
        ),
      );

      const other = await suzuka(url, app);
      const mixed = await get(`${url}/api/analysis/compare?laps=${laps[0].id},${other.id}`);
      assert.equal(mixed.status, 400);
      assert.deepEqual(mixed.body.errors, [
        { path: "laps[0]", message: `lap ${laps[0].id} is of "${BROAD_BEAN}"` },
        { path: "laps[1]", message: `lap ${other.id} is of "Suzuka Circuit"` },
      ]);
      await refused(
        `${url}/api/analysis/compare?laps=${laps[0].id}&ref=${other.id}`,
        ["laps[0]", "ref"],
        /is of "Broad Bean Raceway"/,
      );

      const base = `${url}/api/analysis/compare`;
      await refused(`${base}`, ["laps"], /is required/);
      await refused(`${base}?laps=`, ["laps"], /is required/);
      await refused(`${base}?laps=1,x`, ["laps[1]"], /positive integer/);
      await refused(
        `${base}?laps=1,2,1`,
        ["laps[2]"],
        /^the 3rd lap id \(1\) repeats the 1st: list each lap once$/,
      );
      // Worded for a driver, in detail and issue alike; the path stays `laps[0]` for tools.
      const zero = await get(`${base}?laps=0,1`);
      assert.equal(zero.status, 400);
      const sentence = "the 1st lap id (0) must be a positive integer";
      assert.equal(zero.body.detail, sentence);
      assert.deepEqual(zero.body.errors, [{ path: "laps[0]", message: sentence }]);
      const empty = await get(`${base}?laps=1,,2`);
      assert.equal(empty.body.detail, "the 2nd lap id is empty: it must be a positive integer");
      assert.deepEqual(empty.body.errors.map((e: { path: string }) => e.path), ["laps[1]"]);
      const many = Array.from({ length: 21 }, (_, i) => i + 1).join(",");
      await refused(`${base}?laps=${many}`, ["laps"], /at most 20 ids, got 21/);
      await refused(`${base}?laps=1&ref=0`, ["ref"], /positive integer/);
      await refused(`${base}?laps=1&step=fast`, ["step"], /number of metres >= 0.1/);
      await refused(`${base}?laps=1&step=0.05`, ["step"], />= 0.1/);
      await refused(`${base}?laps=1&channels=speed,wings`, ["channels[1]"], /not a sample channel/);
      await refused(`${base}?laps=1&channels=dist`, ["channels[0]"], /implied by the grid/);
      await refused(`${base}?laps=1&lap=2`, ["lap"], /not a parameter/);
      for (const q of [`laps=${laps[0].id},999`, `laps=${laps[0].id}&ref=998`]) {
        const missing = await get(`${base}?${q}`);
        assert.equal(missing.status, 404, q);
        assert.match(missing.body.detail, /^lap 99[89] not found$/);
      }
    }, { now: NOW });
  },
});

Deno.test({
  name: "corners: the circuit's map on Broad Bean, authored once the bundle has corners",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const laps = await broadBean(url, app);
      const base = `${url}/api/analysis/corners`;
      // Named by its venue, driven the other way round: the reverse layout's map, 5 turns.
      const maps = ["1fb373", "092b5e"].map((id) => referenceCornerMap(configurationById(id)!)!);
      const detected = await get(`${base}?lap=${laps[0].id}&ref=${laps[1].id}`);
      assert.equal(detected.status, 200);
      assert.deepEqual(
        detected.body,
        json(cornerReport(laps[0], laps[1], null, { circuit: maps[1] })),
      );
      assert.equal(detected.body.source, "circuit");
      assert.equal(detected.body.corners.length, 5);
      const deltas = detected.body.corners.map((c) => c.delta_s!);
      assert.deepEqual(deltas, [...deltas].sort((a, b) => b - a));
      const alone = await get(`${base}?lap=${laps[0].id}`);
      assert.deepEqual(alone.body, json(cornerReport(laps[0], null, null, { circuit: maps })));
      assert.equal(alone.body.corners[0].delta_s, null);

      // A bundle of the circuit with its corners authored where lap 2 found them.
      const imported = await send(`${url}/api/track-bundles/import`, "POST", {
        format: FORMAT,
        version: 4,
        meta: { track: BROAD_BEAN, runs: 1, source_runs: { a1b2c3d4e5f6: 1 } },
        edges: [{ x: 0, z: 0, side: "L", votes: { auto: { a1b2c3d4e5f6: [1, 1] } } }],
        finish_crossings: [],
      });
      assert.equal(imported.status, 200);
      const found = lapCorners(traceOf(laps[1].samples), null).corners;
      const names = ["Banking", "Hairpin", "Esses", "Last"];
      const put = await send(
        `${url}/api/track-bundles/broad-bean-raceway/corners`,
        "PUT",
        found.map((c, k) => ({ name: names[k], direction: c.direction, apex: c.apex })),
      );
      assert.equal(put.status, 200);
      const authored = put.body.corners as Corner[];
      const report = await get(`${base}?lap=${laps[0].id}&ref=${laps[1].id}`);
      assert.equal(report.status, 200);
      assert.equal(report.body.source, "authored");
      assert.deepEqual(report.body, json(cornerReport(laps[0], laps[1], authored)));
      assert.deepEqual(
        report.body.corners.map((c: { name: string }) => c.name).sort(),
        [...names].sort(),
      );

      await refused(`${base}`, ["lap"], /is required/);
      await refused(`${base}?lap=x`, ["lap"], /positive integer/);
      await refused(`${base}?lap=1&ref=-1`, ["ref"], /positive integer/);
      await refused(`${base}?lap=1&laps=2`, ["laps"], /not a parameter/);
      assert.equal((await get(`${base}?lap=999`)).status, 404);
      assert.equal((await get(`${base}?lap=${laps[0].id}&ref=999`)).status, 404);
    }, { now: NOW });
  },
});

Deno.test({
  name: "sectors: every lap that counts, never an incomplete lap or an excluded session",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const laps = await broadBean(url, app);
      const base = `${url}/api/analysis/sectors`;
      const q = `?track=${encodeURIComponent(BROAD_BEAN)}&car=${CAR}`;
      const res = await get(base + q);
      assert.equal(res.status, 200);
      // Fastest first, as the service reads them.
      const ranked = [laps[1], laps[3], laps[2], laps[0]];
      const engine = json(bestSectors(ranked, null, broadBeanMaps()));
      assert.deepEqual(res.body, engine);
      assert.equal(res.body.best_lap_id, laps[1].id);
      assert.equal(res.body.best_lap_ms, 32_559);
      assert.equal(res.body.sectors.length, 3);
      assert.ok(res.body.theoretical_best_ms! <= res.body.best_lap_ms!);

      // A faster lap with a hole, and an unnamed copy of lap 2: neither counts.
      const broken = await importLap(url, app, 5, 30_000, holed(), BROAD_BEAN);
      await importLap(url, app, 6, laps[1].time_ms - 500, laps[1].samples, null);
      assert.deepEqual((await get(base + q)).body, engine);
      // An index damaged to make the holed lap count is caught when the lap is read, and rebuilt.
      const row = ["session_lap", broken.session_id, broken.id];
      const share = ["circuit_session", "broad-bean-raceway", CAR, broken.session_id];
      await app.kv.set(row, {
        ...(await app.kv.get<object>(row)).value,
        complete: true,
        counts_for_best: true,
      });
      await app.kv.set(share, { lap_id: broken.id, time_ms: 30_000, laps: 1 });
      assert.deepEqual((await get(base + q)).body, engine);
      assert.equal((await app.kv.get(share)).versionstamp, null);
      assert.equal((await app.kv.get<{ complete: boolean }>(row)).value?.complete, false);
      // The name is matched by its slug.
      assert.deepEqual((await get(`${base}?track=broad-bean-RACEWAY&car=${CAR}`)).body, engine);

      // Keeping lap 2's session out of bests takes it out of the sectors too.
      await send(`${url}/api/sessions/${laps[1].session_id}`, "PATCH", { bests_excluded: true });
      const without = await get(base + q);
      assert.deepEqual(
        without.body,
        json(bestSectors([laps[3], laps[2], laps[0]], null, broadBeanMaps())),
      );
      assert.equal(without.body.best_lap_id, laps[3].id);

      await refused(`${base}?car=${CAR}`, ["track"], /is required/);
      await refused(
        `${base}?track=%20&car=${CAR}`,
        ["track"],
        /^is blank: give 1 to 80 characters that are not all spaces$/,
      );
      await refused(`${base}?track=x`, ["car"], /is required/);
      await refused(`${base}?track=x&car=1.5`, ["car"], /whole number from 0 up/);
      await refused(`${base}?track=x&car=-1`, ["car"], /whole number from 0 up/);
      await refused(`${base}${q}&n=3`, ["n"], /not a parameter/);
      const none = await get(`${base}?track=Monza&car=${CAR}`);
      assert.equal(none.status, 404);
      assert.equal(none.body.detail, `no lap of "Monza" in car ${CAR} counts for best`);
      assert.equal(
        (await get(`${base}?track=${encodeURIComponent(BROAD_BEAN)}&car=1`)).status,
        404,
      );
    }, { now: NOW });
  },
});

Deno.test({
  name: "sectors and consistency of car 0 (a tool that does not record the car) are answered",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const laps: Lap[] = [];
      for (const [k, l] of broadBeanLaps().entries()) {
        laps.push(await importLap(url, app, k + 1, l.time_ms, l.samples, BROAD_BEAN, 0));
      }
      assert.deepEqual(laps.map((l) => l.car_id), [0, 0, 0, 0]);
      const q = `track=${encodeURIComponent(BROAD_BEAN)}&car=0`;
      const sectors = await get(`${url}/api/analysis/sectors?${q}`);
      assert.equal(sectors.status, 200);
      assert.deepEqual(
        sectors.body,
        json(bestSectors([laps[1], laps[3], laps[2], laps[0]], null, broadBeanMaps())),
      );
      const cons = await get(`${url}/api/analysis/consistency?${q}&n=3`);
      assert.equal(cons.status, 200);
      assert.deepEqual(cons.body.lap_ids, [laps[1].id, laps[3].id, laps[2].id]);
      const bySession = await get(
        `${url}/api/analysis/sectors?session=${laps[0].session_id}&car=0`,
      );
      assert.equal(bySession.status, 200);
      assert.equal(bySession.body.best_lap_id, laps[0].id);
      // Car 0's laps are not another car's.
      const other = await get(
        `${url}/api/analysis/sectors?track=${encodeURIComponent(BROAD_BEAN)}&car=${CAR}`,
      );
      assert.equal(other.status, 404);
    }, { now: NOW });
  },
});

Deno.test({
  name: "consistency over the best n laps that count gives the engine's numbers",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const laps = await broadBean(url, app);
      await importLap(url, app, 5, 30_000, holed(), BROAD_BEAN);
      const base = `${url}/api/analysis/consistency?track=${encodeURIComponent(BROAD_BEAN)}`;
      // The hotspots are named by the circuit's map: Broad Bean both ways round, as named.
      const circuit = ["1fb373", "092b5e"].map((id) => referenceCornerMap(configurationById(id)!)!);
      const three = await get(`${base}&car=${CAR}&n=3`);
      assert.equal(three.status, 200);
      assert.deepEqual(
        three.body,
        json(consistency([laps[1], laps[3], laps[2]], { n: 3, circuit })),
      );
      assert.deepEqual(three.body.lap_ids, [laps[1].id, laps[3].id, laps[2].id]);
      const all = await get(`${base}&car=${CAR}`);
      assert.deepEqual(all.body, json(consistency(laps, { n: 5, circuit })));
      assert.equal(all.body.lap_ids.length, 4);
      await refused(`${base}&car=${CAR}&n=1`, ["n"], /from 2 to 100/);
      await refused(`${base}&car=${CAR}&n=101`, ["n"], /from 2 to 100/);
      await refused(`${base}&car=${CAR}&n=five`, ["n"], /from 2 to 100/);
      await refused(`${url}/api/analysis/consistency?car=${CAR}`, ["track"], /is required/);
      assert.equal((await get(`${url}/api/analysis/consistency?track=Spa&car=${CAR}`)).status, 404);
    }, { now: NOW });
  },
});

Deno.test({
  name: "sectors and consistency of one session: unnamed on its own laps, named as its circuit",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const { session, laps } = await oneSession(app);
      const [l1, l2, l3, l4, holedLap, short] = laps;
      // What counts: the four whole laps; not the holed one, nor the one the span guard judged.
      assert.deepEqual(laps.map((l) => l.counts_for_best), [
        true,
        true,
        true,
        true,
        false,
        false,
        false,
      ]);
      const sectors = `${url}/api/analysis/sectors`;
      const cons = `${url}/api/analysis/consistency`;
      const q = `session=${session}&car=${CAR}`;

      const unnamed = await get(`${sectors}?${q}`);
      assert.equal(unnamed.status, 200);
      // Fastest first, as a circuit's are read: laps 2, 4, 3, 1.
      assert.deepEqual(unnamed.body, json(bestSectors([l2, l4, l3, l1], null)));
      assert.equal(unnamed.body.source, "default");
      assert.equal(unnamed.body.sectors.length, 3);
      assert.equal(unnamed.body.best_lap_id, l2.id);
      assert.equal(unnamed.body.best_lap_ms, 32_559);
      // The theoretical best is the sum of the best sectors, each from another lap.
      const bestMs = unnamed.body.sectors.map((s) => Math.round(s.best_s! * 1000));
      assert.deepEqual(bestMs, [12_226, 9_138, 10_930]);
      assert.equal(unnamed.body.theoretical_best_ms, 12_226 + 9_138 + 10_930);
      assert.equal(unnamed.body.theoretical_best_ms, 32_294);
      // The holed lap, the fastest of all, and the cut-short one are never a sector best.
      assert.deepEqual(unnamed.body.sectors.map((s) => s.lap_id), [l1.id, l3.id, l2.id]);
      assert.ok(![holedLap.id, short.id].includes(unnamed.body.best_lap_id!));

      // Unnamed: the hotspots on corners detected from the laps (no marks, no map).
      const three = await get(`${cons}?${q}&n=3`);
      assert.equal(three.status, 200);
      assert.deepEqual(three.body, json(consistency([l2, l4, l3], { n: 3 })));
      assert.deepEqual(three.body.lap_ids, [l2.id, l4.id, l3.id]);
      assert.deepEqual((await get(`${cons}?${q}`)).body.lap_ids, [l2.id, l4.id, l3.id, l1.id]);

      // Named, and the circuit's only session: the same answers as the circuit's.
      const named = await send(`${url}/api/sessions/${session}`, "PATCH", { name: BROAD_BEAN });
      assert.equal(named.status, 200);
      const track = `track=${encodeURIComponent(BROAD_BEAN)}&car=${CAR}`;
      const ofCircuit = await get(`${sectors}?${track}`);
      assert.equal(ofCircuit.status, 200);
      assert.deepEqual((await get(`${sectors}?${q}`)).body, ofCircuit.body);
      const consCircuit = await get(`${cons}?${track}&n=3`);
      assert.equal(consCircuit.status, 200);
      assert.deepEqual((await get(`${cons}?${q}&n=3`)).body, consCircuit.body);
      const maps = ["1fb373", "092b5e"].map((id) => referenceCornerMap(configurationById(id)!)!);
      assert.deepEqual(consCircuit.body, json(consistency([l2, l4, l3], { n: 3, circuit: maps })));

      // Refusals: exactly one of track and session, named by the parameter to fix.
      for (const base of [sectors, cons]) {
        await refused(
          `${base}?${track}&session=${session}`,
          ["session"],
          /^must not be given with track: give exactly one of track and session$/,
        );
        await refused(
          `${base}?car=${CAR}`,
          ["track"],
          /^is required: give exactly one of track and session$/,
        );
        await refused(`${base}?session=0&car=${CAR}`, ["session"], /positive integer/);
        await refused(`${base}?session=${session}`, ["car"], /is required/);
        const both = await get(`${base}?${track}&session=${session}`);
        assert.equal(
          both.body.detail,
          "session must not be given with track: give exactly one of track and session",
        );
        const unknown = await get(`${base}?session=999&car=${CAR}`);
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.detail, "session 999 not found");
        // Car 1 has only a holed lap in the session: nothing counts.
        const none = await get(`${base}?session=${session}&car=1`);
        assert.equal(none.status, 404);
        assert.equal(none.body.detail, `no lap of session ${session} in car 1 counts for best`);
      }
      // A session kept out of bests has no lap that counts, named or not.
      await send(`${url}/api/sessions/${session}`, "PATCH", { bests_excluded: true });
      const out = await get(`${sectors}?${q}`);
      assert.equal(out.status, 404);
      assert.equal(
        out.body.detail,
        `no lap of session ${session} in car ${CAR} counts for best: the session is kept out of bests`,
      );
    }, { now: NOW });
  },
});

Deno.test({
  name: "the Suzuka capture through the API: compare and corners match the engine",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const lap = await suzuka(url, app);
      const again = await suzuka(url, app);
      assert.equal(lap.time_ms, 99_036);
      const cmp = await get(`${url}/api/analysis/compare?laps=${lap.id},${again.id}`);
      assert.equal(cmp.status, 200);
      assert.equal(cmp.body.ref, lap.id);
      const suzukaMap = referenceCornerMap(configurationById("6e378b")!);
      assert.deepEqual(
        cmp.body,
        json(compareLaps({ ref: lap, laps: [lap, again], circuit: suzukaMap })),
      );
      // The same drive twice: no delta anywhere.
      assert.ok(cmp.body.laps[1].delta_s.every((d: number) => d === 0));
      const corners = await get(`${url}/api/analysis/corners?lap=${again.id}&ref=${lap.id}`);
      const map = referenceCornerMap(configurationById("6e378b")!);
      assert.deepEqual(corners.body, json(cornerReport(again, lap, null, { circuit: map })));
      assert.equal(corners.body.source, "circuit");
      assert.equal(corners.body.corners.length, 20);
      const sectors = await get(
        `${url}/api/analysis/sectors?track=Suzuka%20Circuit&car=${lap.car_id}`,
      );
      assert.deepEqual(sectors.body, json(bestSectors([lap, again], null, suzukaMap)));
      assert.equal(sectors.body.theoretical_best_ms, 99_036);
    }, { now: NOW });
  },
});

/** Counts reads of each lap's samples (every read lists the lap's chunks) on `kv`. */
function countSampleReads(kv: Deno.Kv): Map<number, number> {
  const reads = new Map<number, number>();
  const list = kv.list.bind(kv);
  kv.list = ((selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
    const prefix = "prefix" in selector ? selector.prefix : [];
    if (prefix[0] === "lap_samples") {
      const id = prefix[1] as number;
      reads.set(id, (reads.get(id) ?? 0) + 1);
    }
    return list(selector, options);
  }) as typeof kv.list;
  return reads;
}

Deno.test({
  name: "each question reads the samples of the laps it needs, each once",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url, app) => {
      const [a, b, c, d] = (await broadBean(url, app)).map((l) => l.id);
      const reads = countSampleReads(app.kv);
      const asked = async (path: string) => {
        reads.clear();
        assert.equal((await get(`${url}/api/analysis/${path}`)).status, 200, path);
        return Object.fromEntries([...reads].sort(([x], [y]) => x - y));
      };
      assert.deepEqual(await asked(`compare?laps=${a},${b},${c}&ref=${b}`), {
        [a]: 1,
        [b]: 1,
        [c]: 1,
      });
      assert.deepEqual(await asked(`compare?laps=${a},${b}&ref=${d}`), { [a]: 1, [b]: 1, [d]: 1 });
      assert.deepEqual(await asked(`corners?lap=${a}&ref=${a}`), { [a]: 1 });
      const q = `track=${encodeURIComponent(BROAD_BEAN)}&car=${CAR}`;
      assert.deepEqual(await asked(`sectors?${q}`), { [a]: 1, [b]: 1, [c]: 1, [d]: 1 });
      // Only the fastest n: laps 2, 4 and 3.
      assert.deepEqual(await asked(`consistency?${q}&n=3`), { [b]: 1, [c]: 1, [d]: 1 });
      // One session's laps: read once each too (lap 2's session holds lap 2 alone).
      const session = (await app.sessions.lap(b)).session_id;
      assert.deepEqual(await asked(`sectors?session=${session}&car=${CAR}`), { [b]: 1 });
    }, { now: NOW });
  },
});
