/**
 * Honest laps through the live service: a lap with a hole is stored as
 * incomplete, with exact counts, and never becomes a best, a signature or
 * the lap that names its session.
 */
import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import { Conflict } from "../../src/core/errors.ts";
import { generateCircuit } from "../../src/core/synthetic/circuit.ts";
import { planDrive, syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { getSession } from "../../src/storage/sessions.ts";
import { listSignatures } from "../../src/storage/signatures.ts";
import { circuitBundle } from "../core/identify/_laps.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");

/** Seed 11's two laps: 5,246 ticks (87,433 ms), then a faster 5,232 (87,200 ms). */
const SEED = 11;
const PLAN = planDrive({ seed: SEED, laps: 2 });

/** Two seconds of packets, lost 2,000 ticks into lap 2. */
const HOLE = 120;
const HOLE_AT = PLAN.crossingFrames[1] + 2000;

async function withApp(fn: (app: App, kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv, now: () => NOW });
    await fn(app, kv);
    await app.live.flush();
    await app.tracks.fingerprints.idle();
  } finally {
    kv.close();
  }
}

/** Feeds frames `from`..`to` of the drive, less the hole when `holed`. */
async function drive(app: App, holed: boolean, from = 0): Promise<void> {
  let i = 0;
  for (const frame of syntheticFrames({ seed: SEED, laps: 2 })) {
    const lost = holed && i >= HOLE_AT && i < HOLE_AT + HOLE;
    if (i >= from && !lost) app.live.ingest(frame);
    i++;
  }
  await app.live.flush();
}

Deno.test("a lap with a 2-second hole is stored incomplete and is never the best, though faster", async () => {
  assert.deepEqual(PLAN.lapTicks, [5246, 5232]);
  assert.deepEqual(PLAN.lapTimesMs, [87433, 87200]);
  await withApp(async (app, kv) => {
    await drive(app, true);
    const session = app.live.session!;
    const laps = await listLaps(kv, session.id);
    assert.deepEqual(laps.map((l) => l.time_ms), [87433, 87200]);
    const [whole, holed] = laps;

    assert.equal(holed.complete, false);
    assert.equal(holed.samples_expected, 5232);
    assert.equal(holed.samples_received, 5232 - HOLE);
    assert.equal(holed.samples_filled, 0);
    assert.equal(holed.samples_missing, HOLE);
    assert.equal(holed.longest_gap_packets, HOLE);
    assert.equal(holed.frames_dropped, HOLE);
    assert.equal(holed.total_ticks, 5112);
    assert.equal(holed.counts_for_best, false);

    assert.equal(whole.complete, true);
    assert.equal(whole.samples_missing, 0);
    assert.equal(whole.counts_for_best, true);
    assert.equal((await getSession(kv, session.id))?.best_lap_time_ms, 87433);
    assert.equal(app.live.session?.best_lap_time_ms, 87433);

    // The hole is a 121-tick step in t, so the time axis still ends at the lap time.
    const t = (await getLap(kv, holed.id))!.samples.t;
    assert.equal(t.at(-1), 87.2);
    assert.equal(Math.round((t[2000] - t[1999]) * 60), HOLE + 1);
    assert.equal(app.live.status().missing, HOLE);
  });
});

Deno.test("an incomplete lap makes no signature: POST /api/tracks answers 409 naming the rule", async () => {
  await withApp(async (app, kv) => {
    await drive(app, true);
    const [whole, holed] = await listLaps(kv, app.live.session!.id);
    await assert.rejects(
      app.tracks.create({ name: "Ring Eleven", lap_id: holed.id }),
      (e: Conflict) => {
        assert.ok(e instanceof Conflict);
        assert.equal(
          e.message,
          `lap ${holed.id} is incomplete (120 of 5232 samples missing, ` +
            "longest gap 120 packets): a track signature is made from a complete lap only",
        );
        return true;
      },
    );
    assert.deepEqual(await listSignatures(kv), []);
    // The complete lap of the same session makes one.
    const made = await app.tracks.create({ name: "Ring Eleven", lap_id: whole.id });
    assert.equal(made.signature.lap_id, whole.id);
  });
});

Deno.test("an incomplete lap never names its session, live or by identify", async () => {
  const from = PLAN.crossingFrames[1] - 5; // lap 1 too short to store: lap 2 is the only lap
  await withApp(async (app, kv) => {
    await app.bundles.import(circuitBundle(generateCircuit(SEED), "Ring Eleven"));
    await drive(app, true, from);
    const session = app.live.session!;
    assert.deepEqual((await listLaps(kv, session.id)).map((l) => l.complete), [false]);
    assert.equal(session.track_name, "");
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 0,
      identified: 0,
      tracks: {},
    });
  });
  // The same lap without the hole names the session from the bundle.
  await withApp(async (app, kv) => {
    await app.bundles.import(circuitBundle(generateCircuit(SEED), "Ring Eleven"));
    await drive(app, false, from);
    const session = app.live.session!;
    assert.deepEqual((await listLaps(kv, session.id)).map((l) => l.complete), [true]);
    assert.equal(session.track_name, "Ring Eleven");
  });
});
