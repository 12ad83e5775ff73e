/**
 * The circuit's corner map on the real laps of the shared fixtures: every
 * lap of Suzuka, Spa and Broad Bean gets the same corners, numbered the
 * same, as its circuit's map; the count is the catalogue's within one; and
 * a lap's time through each corner is the same whether it is the analysed
 * lap or the reference.
 */
import { strict as assert } from "node:assert";
import {
  configurationsNamed,
  referenceCornerMap,
} from "../../../src/core/analysis/circuit_corners.ts";
import type { CornerMap } from "../../../src/core/analysis/corner_map.ts";
import { cornerReport } from "../../../src/core/analysis/corner_report.ts";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import type { AnalysedLap } from "../../../src/core/analysis/types.ts";
import { configurationById } from "../../../src/core/catalog/tracks.ts";
import { noFixtures } from "../../_fixtures.ts";
import { captureFrames, recordLaps, samplesOfFrames } from "../identify/_laps.ts";
import { broadBeanLaps, suzukaLap } from "./_laps.ts";

function mapOf(id: string): CornerMap {
  const map = referenceCornerMap(configurationById(id)!);
  assert.ok(map !== null, id);
  return map;
}

/** Each lap's located corners are the whole map, in its numbering, at rising distances. */
function assertWholeMap(laps: readonly AnalysedLap[], maps: CornerMap | CornerMap[], id: string) {
  const expected = mapOf(id);
  const turns = configurationById(id)!.turns;
  assert.ok(Math.abs(expected.corners.length - turns) <= 1, `${id}: ${expected.corners.length}`);
  for (const lap of laps) {
    const got = lapCorners(traceOf(lap.samples), null, {}, maps);
    assert.equal(got.source, "circuit");
    assert.deepEqual(
      got.corners.map((c) => [c.n, c.name, c.direction]),
      expected.corners.map((c) => [c.n, c.name, c.direction]),
      `lap ${lap.id} of ${id}`,
    );
    for (let k = 1; k < got.corners.length; k++) {
      assert.ok(got.corners[k].apex_m > got.corners[k - 1].apex_m, `lap ${lap.id} turn ${k + 1}`);
    }
  }
}

/** A's time through each corner as the analysed lap is its time as B's reference. */
function assertSameWindows(a: AnalysedLap, b: AnalysedLap, maps: CornerMap | CornerMap[]) {
  const ab = cornerReport(a, b, null, { circuit: maps });
  const ba = cornerReport(b, a, null, { circuit: maps });
  assert.equal(ab.source, "circuit");
  const asRef = new Map(ba.corners.map((r) => [r.n, r.ref_time_s]));
  for (const row of ab.corners) {
    assert.equal(asRef.get(row.n), row.time_s, `turn ${row.n}: lap ${a.id} vs lap ${b.id}`);
  }
}

Deno.test("a venue's name offers its layout both ways round; a configuration's name just it", () => {
  assert.deepEqual(configurationsNamed("Broad Bean Raceway").map((c) => c.official_id), [
    "1fb373",
    "092b5e",
  ]);
  assert.deepEqual(configurationsNamed("BB Raceway (Reverse)").map((c) => c.official_id), [
    "092b5e",
  ]);
  assert.deepEqual(configurationsNamed("Suzuka Circuit").map((c) => c.official_id), ["6e378b"]);
  assert.deepEqual(
    configurationsNamed("Circuit de Spa-Francorchamps").map((c) => c.official_id),
    ["3c4be1"],
  );
  assert.deepEqual(configurationsNamed("My own track"), []);
  // The same map every time: made once and shared.
  assert.equal(mapOf("6e378b"), mapOf("6e378b"));
});

Deno.test({
  name: "Suzuka: the lap gets the circuit's 20 corners, Turn 1 the First Curve",
  ignore: noFixtures,
  fn() {
    const lap = suzukaLap();
    assertWholeMap([lap], mapOf("6e378b"), "6e378b");
    const corners = lapCorners(traceOf(lap.samples), null, {}, mapOf("6e378b")).corners;
    assert.equal(corners.length, 20);
    // First Curve right, then the Esses left-right-left-right; the hairpin is left.
    assert.deepEqual(corners.slice(0, 5).map((c) => c.direction), ["R", "L", "R", "L", "R"]);
    assert.ok(corners[0].apex_m > 600 && corners[0].apex_m < 1000, `${corners[0].apex_m}`);
    const hairpin = corners.find((c) => c.apex_m > 2840 && c.apex_m < 2980);
    assert.equal(hairpin?.direction, "L");
    assertSameWindows(lap, { ...lap, id: 11 }, mapOf("6e378b"));
  },
});

Deno.test({
  name: "Spa: the recorder's lap gets every corner of the circuit's map",
  ignore: noFixtures,
  fn() {
    const recorded = recordLaps(captureFrames("gt7/spa-full-lap.C.gt7.gz"))[0];
    const lap = { id: 20, time_ms: recorded.time_ms, samples: recorded.samples };
    assertWholeMap([lap], mapOf("3c4be1"), "3c4be1");
  },
});

Deno.test({
  name: "Broad Bean: all four reverse laps and the forward capture get their layout's map",
  ignore: noFixtures,
  fn() {
    const maps = configurationsNamed("Broad Bean Raceway").map((c) => referenceCornerMap(c)!);
    const laps = broadBeanLaps();
    // Driven the other way round: the reverse layout's map, picked by the laps themselves.
    assertWholeMap(laps, maps, "092b5e");
    for (const a of laps) for (const b of laps) if (a !== b) assertSameWindows(a, b, maps);
    const forward = {
      id: 30,
      time_ms: 0,
      samples: samplesOfFrames(
        captureFrames("gt7/encrypted/broad-bean-raceway--full-course.A.gt7"),
      ),
    };
    assertWholeMap([forward], maps, "1fb373");
  },
});
