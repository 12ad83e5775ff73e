import { strict as assert } from "node:assert";
import { getLap, saveLap } from "../../src/storage/laps.ts";
import {
  feedOutbox,
  listOutbox,
  listParked,
  parkOutbox,
  queueOutbox,
  removeOutbox,
} from "../../src/storage/hub_outbox.ts";
import { lineSamples, testLap, testSession } from "../_stored_laps.ts";
import { refusingKv } from "../_refusing_kv.ts";

Deno.test("a complete recorded lap enters the outbox with the lap; imported or holed laps do not", async () => {
  using kv = await Deno.openKv(":memory:");
  feedOutbox(kv);
  const s = await testSession(kv, "Suzuka");
  const a = await saveLap(kv, s.id, testLap(lineSamples(20)));
  await saveLap(kv, s.id, testLap(lineSamples(20), { complete: false, number: 2 }));
  await saveLap(kv, s.id, testLap(lineSamples(20), { imported: true, number: 3 }));
  const c = await saveLap(kv, s.id, testLap(lineSamples(20), { number: 4 }));
  assert.deepEqual((await listOutbox(kv)).map((e) => e.ref), [
    { kind: "lap", id: a.lap.id },
    { kind: "lap", id: c.lap.id },
  ]);
  assert.equal((await listOutbox(kv))[0].queued_at, "2026-11-24T10:00:00.000Z");
});

Deno.test("a store not feeding the outbox stores laps without entries", async () => {
  using kv = await Deno.openKv(":memory:");
  const s = await testSession(kv, "Suzuka");
  await saveLap(kv, s.id, testLap(lineSamples(20)));
  assert.deepEqual(await listOutbox(kv), []);
});

Deno.test("a refused lap commit leaves neither the lap nor its outbox entry", async () => {
  using base = await Deno.openKv(":memory:");
  const r = refusingKv(base);
  feedOutbox(r.kv);
  const s = await testSession(r.kv, "Suzuka");
  r.full = true;
  await assert.rejects(() => saveLap(r.kv, s.id, testLap(lineSamples(20))));
  r.full = false;
  assert.deepEqual(await listOutbox(base), []);
  assert.equal(await getLap(base, 1), null);
  const saved = await saveLap(r.kv, s.id, testLap(lineSamples(20)));
  assert.deepEqual((await listOutbox(base)).map((e) => e.ref), [{ kind: "lap", id: saved.lap.id }]);
  assert.notEqual(await getLap(base, saved.lap.id), null);
});

Deno.test("park moves an entry aside with its reason; queueing again takes it back", async () => {
  using kv = await Deno.openKv(":memory:");
  const at = "2026-11-28T10:00:00.000Z";
  await queueOutbox(kv, [{ kind: "lap", id: 7 }, { kind: "bundle", slug: "suzuka" }], at);
  const [lap] = await listOutbox(kv);
  await parkOutbox(kv, lap, "413: too large", at);
  assert.deepEqual((await listOutbox(kv)).map((e) => e.ref), [{ kind: "bundle", slug: "suzuka" }]);
  assert.deepEqual(await listParked(kv), [{ ...lap, reason: "413: too large", parked_at: at }]);
  await queueOutbox(kv, [{ kind: "lap", id: 7 }], at);
  assert.deepEqual(await listParked(kv), []);
  await removeOutbox(kv, { kind: "bundle", slug: "suzuka" });
  assert.deepEqual((await listOutbox(kv)).map((e) => e.ref), [{ kind: "lap", id: 7 }]);
});
