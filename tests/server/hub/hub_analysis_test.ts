import { strict as assert } from "node:assert";
import { decodeLap, HUB_SECTOR_LAPS } from "../../../src/app/hub/hub_analysis_laps.ts";
import { hubAnalysis } from "../../../src/app/hub/hub_analysis.ts";
import { compareLaps } from "../../../src/core/analysis/compare.ts";
import { coachingNotes } from "../../../src/core/analysis/coaching_notes.ts";
import {
  configurationsNamed,
  referenceCornerMap,
} from "../../../src/core/analysis/circuit_corners.ts";
import { bestSectors } from "../../../src/core/analysis/sectors.ts";
import { noFixtures } from "../../_fixtures.ts";
import { broadBeanLaps } from "../../core/analysis/_laps.ts";
import { perturbLap } from "../../core/analysis/_perturb_lap.ts";
import { exportedFile, FakeHub, withHub } from "./_analysis_hub.ts";
import { BROAD_BEAN, CAR, team } from "./_analysis_team.ts";

const Q = `track=${encodeURIComponent(BROAD_BEAN)}&car=${CAR}`;

/** A value as it comes back through JSON. */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

async function get(url: string) {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
}

/** The circuit's corner maps from its reference lines, as the hub's analysis lays them on laps. */
function circuitMaps() {
  return configurationsNamed(BROAD_BEAN).map(referenceCornerMap).filter((m) => m !== null);
}

Deno.test({
  name: "hub: compare overlays laps of different drivers with the engine's numbers",
  ignore: noFixtures,
  async fn() {
    const { hub, laps } = team();
    await withHub(hub, async (url) => {
      const res = await get(`${url}/api/analysis/compare?laps=11,22`);
      assert.equal(res.status, 200);
      // Bob's lap is the faster complete one: the reference by default.
      assert.equal(res.body.ref, 22);
      const [alice, bob] = [laps.get(11)!, laps.get(22)!];
      assert.deepEqual(
        res.body,
        json(compareLaps({ ref: bob, laps: [alice, bob], circuit: circuitMaps() })),
      );
      const game = (alice.time_ms - bob.time_ms) / 1000;
      assert.ok(Math.abs(res.body.laps[0].delta_s.at(-1)! - game) <= 1 / 60);

      // Laps of two circuits are refused, naming the field and the circuit.
      const other = await get(`${url}/api/analysis/compare?laps=11,47`);
      assert.equal(other.status, 400);
      assert.deepEqual(other.body.errors, [
        { path: "laps[0]", message: `lap 11 is of "${BROAD_BEAN}"` },
        { path: "laps[1]", message: 'lap 47 is of "Home Oval"' },
      ]);
    });
  },
});

Deno.test({
  name: "hub: notes against a teammate's lap; by default against the team's best complete lap",
  ignore: noFixtures,
  async fn() {
    const { hub } = team();
    await withHub(hub, async (url) => {
      const file = async (id: number) => decodeLap(id, await hub.lapFile(id)).lap;
      const circuit = configurationsNamed(BROAD_BEAN).map(referenceCornerMap)
        .filter((m) => m !== null);
      const expected = coachingNotes(await file(11), await file(24), null, { circuit });
      const res = await get(`${url}/api/laps/11/notes?ref=24`);
      assert.equal(res.status, 200);
      assert.equal(res.body.ref_id, 24);
      assert.deepEqual(res.body, json(expected));
      // Carol's holed lap is faster but incomplete; dave's is in another car: bob's lap 2 it is.
      assert.equal((await get(`${url}/api/laps/11/notes`)).body.ref_id, 22);
      assert.equal((await get(`${url}/api/laps/22/notes`)).body.ref_id, 24);
    });
  },
});

Deno.test({
  name: "hub: sectors and consistency over the team's complete laps; no sessions to ask by",
  ignore: noFixtures,
  async fn() {
    const { hub, laps } = team();
    await withHub(hub, async (url) => {
      const res = await get(`${url}/api/analysis/sectors?${Q}`);
      assert.equal(res.status, 200);
      const ranked = [22, 24, 13, 11].map((id) => laps.get(id)!);
      assert.deepEqual(res.body, json(bestSectors(ranked, null, circuitMaps())));
      assert.equal(res.body.best_lap_id, 22);
      const cons = await get(`${url}/api/analysis/consistency?${Q}&n=3`);
      assert.equal(cons.status, 200);
      assert.deepEqual(cons.body.lap_ids, [22, 24, 13]);

      const session = await get(`${url}/api/analysis/sectors?session=1&car=${CAR}`);
      assert.equal(session.status, 400);
      assert.equal(session.body.errors[0].path, "session");
      assert.match(session.body.errors[0].message, /is not known on the hub.*ask by track/);
      const none = await get(`${url}/api/analysis/sectors?track=Nowhere&car=${CAR}`);
      assert.equal(none.status, 404);
      assert.equal(none.body.detail, `no complete lap of "Nowhere" in car ${CAR} is on the hub`);
    });
  },
});

Deno.test({
  name: "hub: an unknown lap is a 404 naming it; a damaged lap file an error naming the lap",
  ignore: noFixtures,
  async fn() {
    const { hub } = team();
    await withHub(hub, async (url) => {
      for (const path of ["/api/analysis/compare?laps=11,999", "/api/laps/999/notes"]) {
        const res = await get(url + path);
        assert.equal(res.status, 404, path);
        assert.equal(res.type, "application/problem+json");
        assert.equal(res.body.detail, "lap 999 not found");
      }
      const notes = await get(`${url}/api/laps/11/notes?ref=999`);
      assert.equal(notes.status, 404);
    });
    const damaged = hubAnalysis({
      lapFile: (id) => Promise.resolve({ ...exportedFile(anyLap(), id), format: "other" }),
      laps: (q) => hub.laps(q),
      bundle: (slug) => hub.bundle(slug),
    });
    await assert.rejects(
      () => damaged.compare({ laps: [11] }),
      /^Error: lap 11's file on the hub is not a lap file: \$\.format: unrecognized/,
    );
  },
});

/** Broad Bean lap 1 as pushed, for a file to damage. */
function anyLap() {
  const [l] = broadBeanLaps();
  return {
    number: 1,
    time_ms: l.time_ms,
    car_id: CAR,
    track_name: BROAD_BEAN,
    finished_at: "",
    samples: l.samples,
  };
}

Deno.test({
  name: "hub: each question reads each lap file it needs once",
  ignore: noFixtures,
  async fn() {
    const { hub } = team();
    await withHub(hub, async (url) => {
      assert.equal((await get(`${url}/api/analysis/corners?lap=13&ref=24`)).status, 200);
      assert.deepEqual(hub.reads.sort(), [13, 24]);
    });
  },
});

Deno.test("hub: the OpenAPI document names the analysis routes and pages as the logger's", async () => {
  await withHub(new FakeHub(), async (url) => {
    const doc = (await get(`${url}/api/openapi.json`)).body;
    const paths = Object.keys(doc.paths);
    for (
      const p of [
        "/api/analysis/compare",
        "/api/analysis/corners",
        "/api/analysis/sectors",
        "/api/analysis/consistency",
        "/api/laps/{id}/notes",
        "/laps",
        "/compare",
        "/team_laps.js",
      ]
    ) assert.ok(paths.includes(p), p);
    const compare = doc.paths["/api/analysis/compare"].get;
    assert.deepEqual(
      compare.parameters.map((p: { name: string }) => p.name),
      ["laps", "ref", "step", "channels"],
    );
  });
});

Deno.test({
  name: "hub: a teammate's lap from another recorder (15 m off, noisy, 30 Hz, a hole) compares",
  ignore: noFixtures,
  async fn() {
    const { hub, laps } = team();
    const bob = laps.get(22)!;
    const samples = perturbLap(bob.samples, {
      offset_m: 15,
      wavelength_m: 900,
      phase: 0.4,
      noise_m: 0.5,
      hole_m: 30,
      hole_at_m: 800,
      hz: 30,
      seed: 38,
    });
    const pushed = {
      number: 9,
      time_ms: bob.time_ms,
      car_id: CAR,
      track_name: BROAD_BEAN,
      finished_at: "2026-11-28T20:00:00Z",
      samples,
    };
    hub.push(28, "bob", pushed);
    await withHub(hub, async (url) => {
      const other = { id: 28, time_ms: bob.time_ms, samples };
      const res = await get(`${url}/api/analysis/compare?laps=11,28&ref=28`);
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body,
        json(compareLaps({ ref: other, laps: [laps.get(11)!, other], circuit: circuitMaps() })),
      );
      const game = (laps.get(11)!.time_ms - bob.time_ms) / 1000;
      assert.ok(Math.abs(res.body.laps[0].delta_s.at(-1)! - game) <= 0.05);
      const notes = await get(`${url}/api/laps/11/notes?ref=28`);
      assert.equal(notes.status, 200);
      assert.equal(notes.body.ref_id, 28);
      // Lost packets make it incomplete: never the team's reference by default.
      assert.equal((await hub.laps({ driver: "bob" })).find((r) => r.id === 28)?.complete, false);
      assert.equal((await get(`${url}/api/laps/11/notes`)).body.ref_id, 22);
    });
  },
});

Deno.test({
  name: "hub: sector bests read the team's fastest 20 laps, no more",
  ignore: noFixtures,
  async fn() {
    const { hub, laps } = team();
    const fourth = laps.get(24)!;
    const copies = Array.from({ length: 20 }, (_, k) => ({ ...fourth, id: 100 + k }));
    for (const c of copies) {
      hub.push(c.id, "erin", {
        number: 4,
        time_ms: c.time_ms,
        car_id: CAR,
        track_name: BROAD_BEAN,
        finished_at: "2026-11-26T20:00:00Z",
        samples: c.samples,
      });
    }
    await withHub(hub, async (url) => {
      hub.reads.length = 0;
      const res = await get(`${url}/api/analysis/sectors?${Q}`);
      assert.equal(res.status, 200);
      // Equal times go by id: bob's lap 2, his lap 4, then erin's copies of it.
      const fastest = [laps.get(22)!, fourth, ...copies.slice(0, HUB_SECTOR_LAPS - 2)];
      assert.deepEqual(res.body, json(bestSectors(fastest, null, circuitMaps())));
      assert.deepEqual(new Set(hub.reads), new Set(fastest.map((l) => l.id)));
    });
  },
});
