import { strict as assert } from "node:assert";
import type { CreateTrackInput } from "../../src/app/tracks/track_request.ts";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { BadRequest, NotFound } from "../../src/core/errors.ts";
import { finishRecordedLap } from "../../src/core/laps/recorded_lap.ts";
import type { RecordedLap } from "../../src/core/laps/recorder.ts";
import { generateCircuit } from "../../src/core/synthetic/circuit.ts";
import { planDrive, syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { getBundleHead, readBundle } from "../../src/storage/bundles.ts";
import { listLaps } from "../../src/storage/laps.ts";
import { createSession, getSession } from "../../src/storage/sessions.ts";
import { saveLap } from "../../src/storage/laps.ts";
import { createSignature, listSignatures } from "../../src/storage/signatures.ts";
import { signatureOf } from "../../src/core/identify/signature.ts";
import { circuitBundle, reversedLap, syntheticLaps } from "../core/identify/_laps.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");

async function withApp(fn: (app: App, events: AppEvent[]) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => NOW });
  const events: AppEvent[] = [];
  app.bus.subscribe((e) => events.push(e));
  try {
    await fn(app, events);
  } finally {
    await app.live.flush();
    await app.tracks.fingerprints.idle();
    kv.close();
  }
}

/** Stores `lap` in a new imported session; returns the session and lap ids. */
async function storeLap(app: App, lap: RecordedLap): Promise<{ session: number; lap: number }> {
  const session = await createSession(app.kv, {
    kind: "imported",
    started_at: NOW.toISOString(),
    car_id: lap.car_id,
    car_name: "Test car",
  });
  const saved = await saveLap(app.kv, session.id, finishRecordedLap(lap, NOW.toISOString()));
  return { session: session.id, lap: saved.lap.id };
}

/** Feeds a synthetic drive into `app`'s live service and waits for the writes. */
async function drive(app: App, seed: number, laps: number, from = 0, to = Infinity) {
  let i = 0;
  for (const frame of syntheticFrames({ seed, laps })) {
    if (i >= from && i < to) app.live.ingest(frame);
    i++;
  }
  await app.live.flush();
}

const LAP_SEED_3 = syntheticLaps(3, 2);
const LAP_SEED_5 = syntheticLaps(5)[0];

Deno.test("POST /api/tracks: stores the signature, names the lap's session and back-fills the live one", async () => {
  await withApp(async (app, events) => {
    await drive(app, 3, 1);
    const live = app.live.session!;
    assert.equal(live.track_name, "");
    const stored = await storeLap(app, LAP_SEED_3[0]);
    const result = await app.tracks.create({ name: "  Ring Three ", lap_id: stored.lap });
    assert.equal(result.signature.id, 1);
    assert.equal(result.signature.name, "Ring Three");
    assert.equal(result.signature.provenance, "user");
    assert.equal(result.signature.lap_id, stored.lap);
    assert.equal(result.signature.session_id, stored.session);
    assert.equal(result.signature.created_at, NOW.toISOString());
    assert.ok(result.signature.length_m > 3300 && result.signature.length_m < 4800);
    assert.deepEqual(result.named_sessions, [stored.session, live.id]);
    // The signature keeps the lap's driving line for the direction test; lists do not show it.
    assert.equal(result.signature.source, "user");
    assert.equal(result.signature.direction, "recorded");
    assert.equal("path" in result.signature, false);
    const [stored1] = await listSignatures(app.kv);
    assert.ok(stored1.path!.length >= 2 * 150, `${stored1.path!.length / 2} points`);
    assert.equal((await getSession(app.kv, stored.session))?.track_name, "Ring Three");
    assert.equal((await getSession(app.kv, live.id))?.track_source, "user");
    assert.equal(app.live.session?.track_name, "Ring Three");
    const renamed = events.filter((e) => e.type === "session" && e.reason === "renamed");
    assert.equal(renamed.length, 2);
    assert.deepEqual(await app.tracks.list(), [result.signature]);
  });
});

Deno.test("POST /api/tracks refuses a bad body, an unknown lap, a lap without positions; nothing stored", async () => {
  await withApp(async (app) => {
    const stored = await storeLap(app, LAP_SEED_5);
    await assert.rejects(app.tracks.create({ name: "  ", lap_id: stored.lap }), BadRequest);
    // A face that skipped its parse (the input types forbid it) still meets the same rules.
    const wrong = (v: unknown) => v as CreateTrackInput;
    await assert.rejects(app.tracks.create(wrong({ name: "X", lap_id: "1" })), (e: BadRequest) => {
      assert.deepEqual(e.issues, [{ path: "$.lap_id", message: "must be a positive integer" }]);
      return true;
    });
    await assert.rejects(app.tracks.create(wrong([1])), BadRequest);
    await assert.rejects(app.tracks.create({ name: "X", lap_id: 99 }), NotFound);
    const nan = LAP_SEED_5.samples.t.map(() => Number.NaN);
    const empty = { ...LAP_SEED_5, samples: { ...LAP_SEED_5.samples, pos_x: nan, pos_z: nan } };
    const blank = await storeLap(app, empty as RecordedLap);
    await assert.rejects(app.tracks.create({ name: "X", lap_id: blank.lap }), /no position data/);
    assert.deepEqual(await listSignatures(app.kv), []);
    assert.equal((await getSession(app.kv, stored.session))?.track_name, "");
  });
});

Deno.test("DELETE /api/tracks/{id}: 404 when unknown; sessions keep their names", async () => {
  await withApp(async (app) => {
    const stored = await storeLap(app, LAP_SEED_5);
    const { signature } = await app.tracks.create({ name: "Five", lap_id: stored.lap });
    await assert.rejects(app.tracks.delete(99), NotFound);
    const before = await getSession(app.kv, stored.session);
    await app.tracks.delete(signature.id);
    await assert.rejects(app.tracks.delete(signature.id), NotFound);
    assert.deepEqual(await getSession(app.kv, stored.session), before);
    assert.equal((await listLaps(app.kv, stored.session)).length, 1);
  });
});

Deno.test("live: a new session is named by signature on its first lap, announced before the lap", async () => {
  await withApp(async (app) => {
    const stored = await storeLap(app, LAP_SEED_3[1]);
    await app.tracks.create({ name: "Ring Three", lap_id: stored.lap });
    // A second app on the same store: a fresh live session on the same circuit.
    const app2 = await createApp({ kv: app.kv, now: () => NOW });
    const events: AppEvent[] = [];
    app2.bus.subscribe((e) => events.push(e));
    await drive(app2, 3, 2);
    const named = events.filter((e) => e.type === "session" && e.reason === "identified");
    assert.equal(named.length, 1);
    const session = app2.live.session!;
    assert.equal(session.track_name, "Ring Three");
    assert.equal(session.track_source, "signature");
    const order = events.filter((e) =>
      e.type === "lap" || (e.type === "session" && e.reason === "identified")
    ).map((e) => e.type === "lap" ? `lap ${e.lap.number} ${e.session.track_name}` : "identified");
    assert.deepEqual(order, ["identified", "lap 1 Ring Three", "lap 2 Ring Three"]);
  });
});

Deno.test("live: with no signature the bundle names the session; elsewhere it stays unnamed", async () => {
  await withApp(async (app, events) => {
    await app.bundles.import(circuitBundle(generateCircuit(4), "Ring Four"));
    await drive(app, 5, 1);
    assert.equal(app.live.session?.track_name, "");
    assert.equal(events.some((e) => e.type === "session" && e.reason === "identified"), false);
    const app2 = await createApp({ kv: app.kv, now: () => NOW });
    await drive(app2, 4, 1);
    assert.equal(app2.live.session?.track_name, "Ring Four");
    assert.equal(app2.live.session?.track_source, "bundle");
    await app2.tracks.fingerprints.idle();
  });
});

Deno.test("live: an unsure first lap leaves the session unnamed and a later lap names it", async () => {
  await withApp(async (app, events) => {
    const plan = planDrive({ seed: 7, laps: 2 });
    // Up to just past the end of lap 1: stored, tried, unnamed (nothing known yet).
    const split = plan.crossingFrames[1] + 5;
    await drive(app, 7, 2, 0, split);
    assert.equal(app.live.session?.lap_count, 1);
    assert.equal(app.live.session?.track_name, "");
    await app.bundles.import(circuitBundle(generateCircuit(7), "Ring Seven"));
    await drive(app, 7, 2, split);
    assert.equal(app.live.session?.lap_count, 2);
    assert.equal(app.live.session?.track_name, "Ring Seven");
    const laps = events.filter((e) => e.type === "lap").map((e) =>
      e.type === "lap" ? e.session.track_name : ""
    );
    assert.deepEqual(laps, ["", "Ring Seven"]);
  });
});

Deno.test("live: during a labelled survey the session takes the label, even over a match", async () => {
  await withApp(async (app, events) => {
    // A bundle that would match names the session "Ring Seven" without the survey...
    await app.bundles.import(circuitBundle(generateCircuit(7), "Ring Seven"));
    // ...but the driver is surveying and said which circuit this is.
    await app.survey.start({ track: "Seven Test" });
    await drive(app, 7, 2);
    await app.survey.stop();
    assert.deepEqual(
      [app.live.session?.track_name, app.live.session?.track_source, app.live.session?.lap_count],
      ["Seven Test", "user", 2],
    );
    const reasons = events.flatMap((e) => e.type === "session" ? [e.reason] : []);
    assert.ok(reasons.includes("surveyed"), reasons.join());
    assert.ok(!reasons.includes("identified"), reasons.join());
    const laps = events.filter((e) => e.type === "lap").map((e) =>
      e.type === "lap" ? e.session.track_name : ""
    );
    assert.deepEqual(laps, ["Seven Test", "Seven Test"]);
    // An unlabelled survey leaves the matching to the circuits known.
    const app2 = await createApp({ kv: app.kv, now: () => NOW });
    await app2.survey.start({});
    await drive(app2, 7, 1);
    await app2.survey.stop();
    assert.deepEqual([app2.live.session?.track_name, app2.live.session?.track_source], [
      "Ring Seven",
      "bundle",
    ]);
    await app2.tracks.fingerprints.idle();
  });
});

Deno.test("identify: works on a fresh store; names the matching unlabelled sessions only", async () => {
  await withApp(async (app, events) => {
    const a = await storeLap(app, LAP_SEED_3[0]);
    const b = await storeLap(app, LAP_SEED_5);
    // Nothing stored yet, but the reference lines are always known: tried, and far from all.
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 2,
      identified: 0,
      tracks: {},
    });
    await app.bundles.import(circuitBundle(generateCircuit(3), "Ring"));
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 2,
      identified: 1,
      tracks: { Ring: 1 },
    });
    assert.equal((await getSession(app.kv, a.session))?.track_name, "Ring");
    assert.equal((await getSession(app.kv, a.session))?.track_source, "bundle");
    assert.equal((await getSession(app.kv, b.session))?.track_name, "");
    assert.equal(events.filter((e) => e.type === "session" && e.reason === "identified").length, 1);
    // Named sessions are not tried again.
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 1,
      identified: 0,
      tracks: {},
    });
  });
});

Deno.test("identify: a signature beats a bundle, and the shortest full lap is the one tried", async () => {
  await withApp(async (app) => {
    await app.bundles.import(circuitBundle(generateCircuit(3), "Bundle Ring"));
    const a = await storeLap(app, LAP_SEED_3[0]);
    const sig = await app.tracks.create({ name: "Signature Ring", lap_id: a.lap });
    const b = await storeLap(app, LAP_SEED_3[1]);
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 1,
      identified: 1,
      tracks: { "Signature Ring": 1 },
    });
    assert.equal((await getSession(app.kv, b.session))?.track_source, "signature");
    // Without the signature, the bundle names the next one.
    await app.tracks.delete(sig.signature.id);
    const c = await storeLap(app, LAP_SEED_3[1]);
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 1,
      identified: 1,
      tracks: { "Bundle Ring": 1 },
    });
    assert.equal((await getSession(app.kv, c.session))?.track_name, "Bundle Ring");
  });
});

Deno.test("fingerprints are cached by generation and rebuilt after a bundle event", async () => {
  await withApp(async (app) => {
    const cache = app.tracks.fingerprints;
    await app.bundles.import(circuitBundle(generateCircuit(3), "Ring"));
    assert.equal(cache.builds, 0);
    const first = await cache.candidates();
    assert.equal(first.length, 1);
    assert.equal(cache.builds, 1);
    await cache.candidates();
    assert.equal(cache.builds, 1);
    const gen1 = cache.peek("ring")!.generation;
    // A partial survey of the same circuit under the same name: a new generation.
    await app.bundles.import(circuitBundle(generateCircuit(3), "Ring", { dx: 0.4 }));
    await cache.idle();
    assert.equal(cache.builds, 2);
    const entry = cache.peek("ring")!;
    assert.equal(entry.generation, (await getBundleHead(app.kv, "ring"))!.generation);
    assert.ok(entry.generation > gen1);
    await cache.candidates();
    assert.equal(cache.builds, 2);
  });
});

Deno.test("official: the suggestion never sets meta.official; PUT confirms; an import keeps it", async () => {
  await withApp(async (app, events) => {
    const stored = await storeLap(app, LAP_SEED_5);
    await app.bundles.import(circuitBundle(generateCircuit(5), "Autopolis"));
    await app.tracks.create({ name: "Autopolis", lap_id: stored.lap });
    const head = (await getBundleHead(app.kv, "autopolis"))!;
    const s = await app.bundles.officialSuggestion("autopolis");
    assert.equal(s.suggestion?.official_id, "1d0c5e");
    assert.equal(s.official, null);
    assert.ok(s.length_m! > 3300);
    assert.equal((await getBundleHead(app.kv, "autopolis"))!.generation, head.generation);
    assert.equal((await readBundle(app.kv, "autopolis"))!.doc.meta.official, null);
    await assert.rejects(app.bundles.officialSuggestion("nowhere"), NotFound);
    await assert.rejects(app.bundles.officialSuggestion("Not A Slug"), BadRequest);

    const { track: _t, country: _c, confidence: _f, why: _w, ...rest } = s.suggestion!;
    const official = { track: s.suggestion!.track, ...rest };
    await assert.rejects(
      app.bundles.confirmOfficial("autopolis", { official: { ...official, turns: -1 } }),
      (e: BadRequest) => e.issues[0].path === "$.official.turns",
    );
    await assert.rejects(app.bundles.confirmOfficial("nowhere", { official }), NotFound);
    const confirmed = await app.bundles.confirmOfficial("autopolis", { official });
    assert.equal(confirmed.official?.official_id, "1d0c5e");
    const last = events.at(-1)!;
    assert.deepEqual(last, {
      type: "bundle",
      slug: "autopolis",
      track: "Autopolis",
      reason: "official",
    });
    assert.equal((await app.bundles.officialSuggestion("autopolis")).suggestion, null);

    const incoming = circuitBundle(generateCircuit(5), "Autopolis");
    (incoming.meta as Record<string, unknown>).official = { ...official, official_id: "2c2c67" };
    const imported = await app.bundles.import(incoming);
    assert.equal(imported.official_kept, true);
    assert.equal(imported.official?.official_id, "1d0c5e");
    assert.equal((await readBundle(app.kv, "autopolis"))!.doc.meta.official?.official_id, "1d0c5e");
    // Clearing is a human's act too.
    assert.equal(
      (await app.bundles.confirmOfficial("autopolis", { official: null })).official,
      null,
    );
  });
});

Deno.test("a lap driven the other way round never takes a signature's or a bundle's name", async () => {
  await withApp(async (app) => {
    const made = await storeLap(app, LAP_SEED_3[0]);
    await app.tracks.create({ name: "Ring Three", lap_id: made.lap });
    const back = await storeLap(app, reversedLap(LAP_SEED_3[1]));
    const ahead = await storeLap(app, LAP_SEED_3[1]);
    // The reversed lap passes the four gates (same length and box) but not the direction test.
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 2,
      identified: 1,
      tracks: { "Ring Three": 1 },
    });
    assert.equal((await getSession(app.kv, ahead.session))?.track_name, "Ring Three");
    assert.equal((await getSession(app.kv, back.session))?.track_name, "");
    const why = await app.tracks.explainLap(back.lap);
    assert.equal(why.identification, null);
    assert.deepEqual(
      why.signatures.map((s) => [s.name, s.kept, s.gate, s.direction, s.forward_share]),
      [["Ring Three", false, null, "reverse", 0]],
    );
    assert.match(why.signatures[0].reason, /other way round/);

    // A bundle whose edges carry the direction they were driven in: the same.
    await app.tracks.delete(1);
    await app.bundles.import(circuitBundle(generateCircuit(3), "Bundle Ring", { headings: true }));
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 1,
      identified: 0,
      tracks: {},
    });
    const again = await app.tracks.explainLap(back.lap);
    assert.equal(again.bundles.direction, "reverse");
    assert.equal(
      again.bundles.reason,
      "the lap goes round Bundle Ring the other way from its survey",
    );
    assert.deepEqual(again.bundles.candidates.map((b) => [b.slug, b.kept, b.coverage]), [
      ["bundle-ring", false, 1],
    ]);
    const forward = await storeLap(app, LAP_SEED_3[0]);
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 2,
      identified: 1,
      tracks: { "Bundle Ring": 1 },
    });
    assert.equal((await getSession(app.kv, forward.session))?.track_source, "bundle");
    assert.equal((await getSession(app.kv, back.session))?.track_name, "");
  });
});

Deno.test("knowledge without a direction (stored before it was kept) matches either way round", async () => {
  await withApp(async (app) => {
    const back = await storeLap(app, reversedLap(LAP_SEED_3[1]));
    // A signature stored by an earlier version: five numbers, no driving line.
    await createSignature(app.kv, {
      name: "Old Ring",
      ...signatureOf(LAP_SEED_3[0].samples)!,
      created_at: NOW.toISOString(),
      provenance: "user",
      lap_id: 99,
      session_id: 99,
    });
    assert.deepEqual((await app.tracks.list()).map((s) => [s.name, s.direction]), [
      ["Old Ring", "unknown"],
    ]);
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 1,
      identified: 1,
      tracks: { "Old Ring": 1 },
    });
    const why = await app.tracks.explainLap(back.lap);
    assert.equal(why.signatures[0].direction, "not recorded");
    assert.equal(why.signatures[0].kept, true);
    // A bundle surveyed without directions: the same rule.
    const back2 = await storeLap(app, reversedLap(LAP_SEED_3[1]));
    await app.tracks.delete(1);
    await app.bundles.import(circuitBundle(generateCircuit(3), "Plain Ring"));
    assert.deepEqual(await app.tracks.identifyUnlabelled(), {
      checked: 1,
      identified: 1,
      tracks: { "Plain Ring": 1 },
    });
    assert.equal((await app.tracks.explainLap(back2.lap)).bundles.direction, "unknown");
  });
});
