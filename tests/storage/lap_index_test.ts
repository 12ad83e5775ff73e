import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import {
  ensureLapIndex,
  LAP_INDEX_MARKER,
  readBests,
  rebuildLapIndex,
  type StoredBest,
} from "../../src/storage/bests.ts";
import { sessionRows, stageBests } from "../../src/storage/lap_index.ts";
import { deleteLap, getLapSummary, saveLap } from "../../src/storage/laps.ts";
import { removalKey, removeSession } from "../../src/storage/session_removal.ts";
import { getSession, sessionKey, updateSession } from "../../src/storage/sessions.ts";
import { allKeys, lineSamples, storeLaps, testLap, testSession } from "../_stored_laps.ts";

/** The bests without the session records, for exact comparison. */
function summary(bests: StoredBest[]) {
  return bests.map(({ session: _s, ...b }) => b);
}

/** Every entry of the store but the id counters, the start-up stamps and the source id. */
async function entries(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    if (["counter", "meta", "settings"].includes(e.key[0] as string)) continue;
    out.push(JSON.stringify([e.key, e.value instanceof Uint8Array ? e.value.length : e.value]));
  }
  return out.sort();
}

Deno.test("bests: the fastest complete lap per circuit and car, never an incomplete or unnamed one", async () => {
  using kv = await Deno.openKv(":memory:");
  const a = await testSession(kv, "Suzuka Circuit", 1);
  const [a1, a2, a3] = await storeLaps(kv, a, [90_000, 88_000, 89_000]);
  // The fastest lap of all has a hole: stored, never a best.
  await saveLap(
    kv,
    a.id,
    testLap(lineSamples(20), { car_id: 1, time_ms: 87_000, complete: false }),
  );
  const b = await testSession(kv, "suzuka circuit", 1); // the same circuit by its slug
  const [b1] = await storeLaps(kv, b, [88_500]);
  const c = await testSession(kv, "Suzuka Circuit", 2);
  const [c1] = await storeLaps(kv, c, [91_000]);
  const unnamed = await testSession(kv, "", 1);
  await storeLaps(kv, unnamed, [80_000]);
  assert.ok(a1 && a3 && b1);
  assert.deepEqual(summary(await readBests(kv)), [
    {
      circuit: "suzuka-circuit",
      car_id: 1,
      lap_id: a2.lap.id,
      session_id: a.id,
      time_ms: 88_000,
      laps: 4,
      sessions: 2,
    },
    {
      circuit: "suzuka-circuit",
      car_id: 2,
      lap_id: c1.lap.id,
      session_id: c.id,
      time_ms: 91_000,
      laps: 1,
      sessions: 1,
    },
  ]);
});

Deno.test("bests: a session excluded from bests leaves them, and comes back when included", async () => {
  using kv = await Deno.openKv(":memory:");
  const a = await testSession(kv, "Spa", 1);
  const [, a2] = await storeLaps(kv, a, [120_000, 118_000]);
  const b = await testSession(kv, "Spa", 1);
  const [b1] = await storeLaps(kv, b, [119_000]);
  await updateSession(kv, a.id, (s) => ({ ...s, bests_excluded: true }));
  assert.deepEqual(summary(await readBests(kv)), [
    {
      circuit: "spa",
      car_id: 1,
      lap_id: b1.lap.id,
      session_id: b.id,
      time_ms: 119_000,
      laps: 1,
      sessions: 1,
    },
  ]);
  // A lap stored in an excluded session stays out too.
  await storeLaps(kv, a, [100_000]);
  assert.equal((await readBests(kv))[0].time_ms, 119_000);
  await updateSession(kv, b.id, (s) => ({ ...s, bests_excluded: true }));
  assert.deepEqual(await readBests(kv), []);
  await updateSession(kv, a.id, (s) => ({ ...s, bests_excluded: false }));
  const back = summary(await readBests(kv));
  assert.equal(back.length, 1);
  assert.equal(back[0].time_ms, 100_000);
  assert.equal(back[0].laps, 3);
  assert.notEqual(back[0].lap_id, a2.lap.id);
});

Deno.test("bests: renaming a session moves its laps to the new circuit; unnaming takes them out", async () => {
  using kv = await Deno.openKv(":memory:");
  const a = await testSession(kv, "Suzuka", 7);
  const [a1, a2] = await storeLaps(kv, a, [90_000, 89_000]);
  const b = await testSession(kv, "Suzuka", 7);
  const [b1] = await storeLaps(kv, b, [89_500]);
  await updateSession(kv, a.id, (s) => ({ ...s, track_name: "Fuji" }));
  assert.deepEqual(summary(await readBests(kv)), [
    {
      circuit: "fuji",
      car_id: 7,
      lap_id: a2.lap.id,
      session_id: a.id,
      time_ms: 89_000,
      laps: 2,
      sessions: 1,
    },
    {
      circuit: "suzuka",
      car_id: 7,
      lap_id: b1.lap.id,
      session_id: b.id,
      time_ms: 89_500,
      laps: 1,
      sessions: 1,
    },
  ]);
  // A change of case only keeps the circuit; the best follows the session's name.
  await updateSession(kv, a.id, (s) => ({ ...s, track_name: "FUJI" }));
  const fuji = (await readBests(kv))[0];
  assert.equal(fuji.session.track_name, "FUJI");
  await updateSession(kv, a.id, (s) => ({ ...s, track_name: "" }));
  assert.deepEqual((await readBests(kv)).map((x) => x.circuit), ["suzuka"]);
  assert.ok(a1);
});

Deno.test("deleting a lap updates its session's count and best, the siblings' verdicts and bests", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await testSession(kv, "Tsukuba", 5);
  const save = (time: number, span: number) =>
    saveLap(kv, s.id, testLap(lineSamples(20, span), { car_id: 5, time_ms: time }));
  const l1 = await save(60_000, 1000);
  await save(61_000, 1000);
  // Fastest, but 4 % short of the others: the span guard keeps it out of the best.
  const l3 = await save(58_000, 960);
  assert.equal(l3.lap.counts_for_best, false);
  assert.equal(l3.session.best_lap_time_ms, 60_000);
  assert.equal((await readBests(kv))[0].laps, 2);

  const deleted = await deleteLap(kv, l1.lap.id);
  assert.equal(deleted?.lap.id, l1.lap.id);
  // Two laps left: judged against the longest with the looser ratio, the short one now counts.
  assert.equal(deleted?.session.lap_count, 2);
  assert.equal(deleted?.session.best_lap_time_ms, 58_000);
  assert.deepEqual(await getSession(kv, s.id), deleted?.session);
  assert.equal((await getLapSummary(kv, l3.lap.id))?.counts_for_best, true);
  assert.equal(
    (await sessionRows(kv, s.id)).find((r) => r.id === l3.lap.id)?.counts_for_best,
    true,
  );
  assert.deepEqual(summary(await readBests(kv)), [
    {
      circuit: "tsukuba",
      car_id: 5,
      lap_id: l3.lap.id,
      session_id: s.id,
      time_ms: 58_000,
      laps: 2,
      sessions: 1,
    },
  ]);
  assert.equal(await deleteLap(kv, l1.lap.id), null);
});

Deno.test("deleting the best lap of a circuit falls back to the next session's best", async () => {
  using kv = await Deno.openKv(":memory:");
  const a = await testSession(kv, "Monza", 1);
  const [a1] = await storeLaps(kv, a, [100_000]);
  const b = await testSession(kv, "Monza", 1);
  const [b1] = await storeLaps(kv, b, [101_000]);
  await deleteLap(kv, a1.lap.id);
  assert.deepEqual(summary(await readBests(kv)), [
    {
      circuit: "monza",
      car_id: 1,
      lap_id: b1.lap.id,
      session_id: b.id,
      time_ms: 101_000,
      laps: 1,
      sessions: 1,
    },
  ]);
  await deleteLap(kv, b1.lap.id);
  assert.deepEqual(await readBests(kv), []);
});

Deno.test("a deleted lap leaves nothing behind in the store", async () => {
  using kv = await Deno.openKv(":memory:");
  await ensureLapIndex(kv);
  const s = await testSession(kv, "Monza", 1);
  await storeLaps(kv, s, [100_000]);
  const before = await entries(kv);
  const keysBefore = await allKeys(kv);
  // A long lap of noisy speed: its samples take more than one chunk.
  const samples = lineSamples(40_000);
  samples.speed = samples.speed.map((v, i) => v + Math.sin(i * 12.9898) * 43758.5453 % 1);
  const big = await saveLap(kv, s.id, testLap(samples, { car_id: 1, time_ms: 99_000 }));
  assert.ok((await allKeys(kv)).filter((k) => k.startsWith('["lap_samples"')).length > 2);
  await deleteLap(kv, big.lap.id);
  assert.deepEqual(await allKeys(kv), keysBefore);
  assert.deepEqual(await entries(kv), before);
});

Deno.test("a removed session leaves nothing behind, and the others' bests stand", async () => {
  using kv = await Deno.openKv(":memory:");
  await ensureLapIndex(kv);
  const keep = await testSession(kv, "Monza", 1);
  await storeLaps(kv, keep, [101_000]);
  const before = await entries(kv);
  const keysBefore = await allKeys(kv);
  const gone = await testSession(kv, "Monza", 1);
  await storeLaps(kv, gone, [99_000, 98_000, 97_000]);
  await updateSession(kv, gone.id, (s) => ({ ...s, notes: "wet" }));
  assert.equal((await readBests(kv))[0].session_id, gone.id);
  const removed = await removeSession(kv, gone.id);
  assert.equal(removed?.lap_count, 3);
  assert.equal(removed?.notes, "wet");
  assert.deepEqual(await allKeys(kv), keysBefore);
  assert.deepEqual(await entries(kv), before);
  assert.equal((await readBests(kv))[0].session_id, keep.id);
  assert.equal(await removeSession(kv, gone.id), null);
});

Deno.test("a removal cut short after its first commit is finished at the next start", async () => {
  using kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const keep = await testSession(kv, "Monza", 1);
  await storeLaps(kv, keep, [101_000]);
  const before = await entries(kv);
  const gone = await testSession(kv, "Monza", 1);
  await storeLaps(kv, gone, [99_000, 98_000]);
  // The first step of removeSession, as a crash right after it leaves the store.
  const current = await kv.get(sessionKey(gone.id));
  const rows = await sessionRows(kv, gone.id);
  const op = kv.atomic().check(current).delete(sessionKey(gone.id)).set(removalKey(gone.id), true);
  await stageBests(kv, op, {
    session: gone.id,
    from: "monza",
    to: null,
    rows: [],
    cars: rows.map((r) => r.car_id),
  });
  assert.ok((await op.commit()).ok);
  // Gone for readers already: no session, no bests.
  assert.equal((await app.sessions.list()).length, 1);
  assert.equal((await app.sessions.bests())[0].session_id, keep.id);
  assert.deepEqual(
    (await app.sessions.listAcross({})).map((l) => l.session_id),
    [keep.id],
  );
  await app.shutdown();
  await createApp({ kv });
  assert.deepEqual(await entries(kv), before);
});

Deno.test("a store without the index marker has its index rebuilt at start, rows included", async () => {
  using kv = await Deno.openKv(":memory:");
  await ensureLapIndex(kv);
  const a = await testSession(kv, "Suzuka", 1);
  await storeLaps(kv, a, [90_000, 89_000]);
  const b = await testSession(kv, "Spa", 2);
  await storeLaps(kv, b, [120_000]);
  await storeLaps(kv, b, [110_000], { complete: false });
  const good = await entries(kv);
  const bests = await readBests(kv);
  // A store from before the index: rows were `true`, no shares, no bests, no marker.
  const op = kv.atomic().delete(LAP_INDEX_MARKER);
  for await (const e of kv.list({ prefix: ["session_lap"] })) op.set(e.key, true);
  for await (const e of kv.list({ prefix: ["circuit_session"] })) op.delete(e.key);
  for await (const e of kv.list({ prefix: ["circuit_best"] })) op.delete(e.key);
  // And one damaged entry the rebuild must replace.
  op.set(["circuit_best", "spa", 2], {
    lap_id: 999,
    session_id: 1,
    time_ms: 1,
    laps: 1,
    sessions: 1,
  });
  assert.ok((await op.commit()).ok);
  assert.notDeepEqual(await entries(kv), good);
  // Rows read before the rebuild already come from the laps' records.
  assert.deepEqual((await sessionRows(kv, a.id)).map((r) => r.time_ms), [90_000, 89_000]);
  await createApp({ kv });
  assert.deepEqual(await entries(kv), good);
  assert.deepEqual(await readBests(kv), bests);
  assert.deepEqual((await kv.get(LAP_INDEX_MARKER)).value, { version: 1 });
});

Deno.test("a best that fails its check on read has the index rebuilt before it is answered", async () => {
  using kv = await Deno.openKv(":memory:");
  await ensureLapIndex(kv);
  const a = await testSession(kv, "Suzuka", 1);
  const [, fast] = await storeLaps(kv, a, [90_000, 89_000]);
  const good = await entries(kv);
  const damage: [Deno.KvKey, unknown][] = [
    // a time that is not its lap's
    [["circuit_best", "suzuka", 1], {
      lap_id: fast.lap.id,
      session_id: a.id,
      time_ms: 1,
      laps: 2,
      sessions: 1,
    }],
    // a lap that does not exist
    [["circuit_best", "suzuka", 1], {
      lap_id: 999,
      session_id: a.id,
      time_ms: 89_000,
      laps: 2,
      sessions: 1,
    }],
    // not a best at all
    [["circuit_best", "suzuka", 1], "garbage"],
    // a circuit the session is not named after
    [["circuit_best", "spa", 1], {
      lap_id: fast.lap.id,
      session_id: a.id,
      time_ms: 89_000,
      laps: 1,
      sessions: 1,
    }],
  ];
  for (const [key, value] of damage) {
    await kv.set(key, value);
    const bests = await readBests(kv);
    assert.deepEqual(summary(bests), [
      {
        circuit: "suzuka",
        car_id: 1,
        lap_id: fast.lap.id,
        session_id: a.id,
        time_ms: 89_000,
        laps: 2,
        sessions: 1,
      },
    ]);
    assert.deepEqual(await entries(kv), good);
  }
  // An explicit rebuild of a sound index changes nothing.
  assert.deepEqual(await rebuildLapIndex(kv), { sessions: 1, laps: 2, bests: 1 });
  assert.deepEqual(await entries(kv), good);
});

Deno.test("a session keeps taking laps past 100 (a commit allows 100 checks)", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await testSession(kv, "Oval", 1);
  const times = Array.from({ length: 105 }, (_, i) => 30_000 + i);
  await storeLaps(kv, s, times, { n: 4 });
  const session = await getSession(kv, s.id);
  assert.equal(session?.lap_count, 105);
  assert.equal(session?.best_lap_time_ms, 30_000);
  const [best] = await readBests(kv);
  assert.equal(best.laps, 105);
});

Deno.test("concurrent laps of one circuit in many sessions are all counted in its bests", async () => {
  using kv = await Deno.openKv(":memory:");
  const sessions = await Promise.all(
    Array.from({ length: 24 }, () => testSession(kv, "Daytona", 1)),
  );
  await Promise.all(sessions.map((s, i) => storeLaps(kv, s, [50_000 + i * 10, 49_000 + i])));
  const [best] = await readBests(kv);
  assert.equal(best.laps, 48);
  assert.equal(best.sessions, 24);
  assert.equal(best.time_ms, 49_000);
  assert.equal(best.session_id, sessions[0].id);
  // What the writes left equals what a rebuild derives.
  const written = await entries(kv);
  await rebuildLapIndex(kv);
  assert.deepEqual(await entries(kv), written);
});
