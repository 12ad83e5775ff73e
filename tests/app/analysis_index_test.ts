import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { rowKey, rowOf, sessionRows } from "../../src/storage/lap_index.ts";
import { storeLaps, testSession } from "../_stored_laps.ts";

Deno.test("analysis over a damaged lap index answers from the real laps and repairs the index", async () => {
  using kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const session = await testSession(kv, "Suzuka", 1);
  const [slow, fast] = await storeLaps(kv, session, [90_000, 89_000]);
  const good = await sessionRows(kv, session.id);
  // A row for a lap that does not exist, faster than both: every read picks it first.
  await kv.set(rowKey(session.id, 999), { ...rowOf(fast.lap), id: 999, time_ms: 80_000 });

  const report = await app.analysis.consistency({ track: "Suzuka", car: 1, n: 2 });
  assert.deepEqual(report.lap_ids, [fast.lap.id, slow.lap.id]);
  assert.deepEqual(report.lap_times_ms, [89_000, 90_000]);
  // The second mismatch in a row rebuilt the index: the ghost row is gone.
  assert.deepEqual(await sessionRows(kv, session.id), good);
  await app.shutdown();
});
