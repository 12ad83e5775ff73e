import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { BadRequest } from "../../src/core/errors.ts";
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

Deno.test("one unnamed session's laps over a damaged row: the real laps, the index repaired", async () => {
  using kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const session = await testSession(kv, "", 1);
  const [slow, fast] = await storeLaps(kv, session, [90_000, 89_000]);
  const good = await sessionRows(kv, session.id);
  // A row for a lap that does not exist, faster than both: every read picks it first.
  await kv.set(rowKey(session.id, 999), { ...rowOf(fast.lap), id: 999, time_ms: 80_000 });

  const report = await app.analysis.consistency({ session: session.id, car: 1, n: 2 });
  assert.deepEqual(report.lap_ids, [fast.lap.id, slow.lap.id]);
  const sectors = await app.analysis.sectors({ session: session.id, car: 1 });
  assert.equal(sectors.best_lap_id, fast.lap.id);
  assert.deepEqual(await sessionRows(kv, session.id), good);
  await app.shutdown();
});

Deno.test("a sectors or consistency question names exactly one of a circuit and a session", async () => {
  using kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  await assert.rejects(
    () => app.analysis.sectors({ car: 1 }),
    (err: BadRequest) => {
      assert.deepEqual(err.issues, [{
        path: "track",
        message: "is required: give exactly one of track and session",
      }]);
      return true;
    },
  );
  await assert.rejects(
    () => app.analysis.consistency({ track: "Suzuka", session: 1, car: 1, n: 2 }),
    (err: BadRequest) => {
      assert.equal(
        err.message,
        "session must not be given with track: give exactly one of track and session",
      );
      return true;
    },
  );
  await app.shutdown();
});
