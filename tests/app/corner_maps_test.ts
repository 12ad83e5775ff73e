import { strict as assert } from "node:assert";
import { CornerMaps } from "../../src/app/analysis/corner_maps.ts";
import { referenceCornerMap } from "../../src/core/analysis/circuit_corners.ts";
import { configurationById } from "../../src/core/catalog/tracks.ts";
import { deleteLap, saveLap } from "../../src/storage/laps.ts";
import { cornerMapKey, getCornerMap } from "../../src/storage/corner_maps.ts";
import { testLap, testSession } from "../_stored_laps.ts";
import { driveLap, stadium } from "../core/analysis/_laps.ts";

Deno.test("a circuit with a reference line takes its map and stores nothing", async () => {
  using kv = await Deno.openKv(":memory:");
  const maps = new CornerMaps({ kv });
  const suzuka = await maps.of("Suzuka Circuit");
  assert.deepEqual(suzuka, [referenceCornerMap(configurationById("6e378b")!)]);
  assert.equal(suzuka[0].corners.length, 20);
  // A bundle's confirmed official match names the configuration whatever the circuit is called.
  const confirmed = await maps.of("My Suzuka", {
    ...configurationById("4414cb")!,
  });
  assert.equal(confirmed[0].corners.length, configurationById("4414cb")!.turns);
  assert.deepEqual(await maps.of(""), []);
  assert.equal(await getCornerMap(kv, "suzuka-circuit"), null);
});

Deno.test("a circuit without a line: the map of its best lap, kept while that lap is", async () => {
  using kv = await Deno.openKv(":memory:");
  const maps = new CornerMaps({ kv });
  assert.deepEqual(await maps.of("Home Oval"), []);
  const session = await testSession(kv, "Home Oval");
  const first = await saveLap(kv, session.id, testLap(driveLap(stadium(600, 80))));
  const [map] = await maps.of("Home Oval");
  assert.deepEqual(map.corners.map((c) => [c.n, c.direction]), [[1, "R"], [2, "R"]]);
  assert.equal((await getCornerMap(kv, "home-oval"))!.lap_id, first.lap.id);

  // A faster lap on another line does not renumber the circuit: the map is kept.
  // A smaller stadium driven the other way round: two left-handers.
  const mirrored = driveLap(stadium(400, 60));
  const wider = { ...mirrored, pos_x: mirrored.pos_x.map((x) => -x) };
  // In a session of its own, in another car: the span guard judges laps within one session.
  const other = await testSession(kv, "Home Oval", 1234);
  const faster = await saveLap(kv, other.id, testLap(wider, { car_id: 1234 }));
  assert.ok(faster.lap.counts_for_best && faster.lap.time_ms < first.lap.time_ms);
  assert.deepEqual(await maps.of("Home Oval"), [map]);

  // A record that does not match its lap is never trusted: it is made again from the best lap.
  const stored = (await getCornerMap(kv, "home-oval"))!;
  await kv.set(cornerMapKey("home-oval"), { ...stored, lap_hash: "0-00000000" });
  const [remade] = await maps.of("Home Oval");
  assert.equal((await getCornerMap(kv, "home-oval"))!.lap_id, faster.lap.id);
  assert.deepEqual(remade.corners.map((c) => c.direction), ["L", "L"]);

  // Another version's record, or its lap gone: made again.
  await kv.set(cornerMapKey("home-oval"), { ...stored, map: { ...stored.map, version: 0 } });
  assert.deepEqual(await maps.of("Home Oval"), [remade]);
  await deleteLap(kv, faster.lap.id);
  const [back] = await maps.of("Home Oval");
  assert.equal((await getCornerMap(kv, "home-oval"))!.lap_id, first.lap.id);
  assert.deepEqual(back, map);
});
