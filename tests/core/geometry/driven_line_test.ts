import { strict as assert } from "node:assert";
import type { Edge } from "../../../src/core/bundle/types.ts";
import { DRIVEN_MAX_JOIN_M, drivenLine } from "../../../src/core/geometry/driven_line.ts";

/** A record laid as the survey lays one: half `tw` to `side` of a car at (cx, cz) heading (hx, hz). */
function laid(side: "L" | "R", cx: number, cz: number, hx: number, hz: number, tw: number | null) {
  const half = (side === "L" ? 0.5 : -0.5) * (tw ?? 0);
  return {
    x: cx + hz * half,
    z: cz - hx * half,
    y: null,
    hx,
    hz,
    side,
    kind: "straddle",
    votes: { straddle: { abc123: [1, 1] } },
    run: 1,
    tw,
  } satisfies Edge;
}

Deno.test("the driven line steps back from each record to the car, every 2 m, in laying order", () => {
  // Heading +x: the car's left is -z. Left and right records alternate as a survey might.
  const edges = [...Array(11).keys()].map((i) => laid(i % 2 ? "R" : "L", i, 5, 1, 0, 1.6));
  assert.deepEqual(edges[0].z, 4.2);
  assert.deepEqual(edges[1].z, 5.8);
  assert.deepEqual(drivenLine(edges), [[[0, 5], [2, 5], [4, 5], [6, 5], [8, 5], [10, 5]]]);
  // Heading +z: the left is +x.
  const north = [0, 3, 6].map((i) => laid("L", 0, i, 0, 1, 2));
  assert.deepEqual(north.map((e) => e.x), [1, 1, 1]);
  assert.deepEqual(drivenLine(north), [[[0, 0], [0, 3], [0, 6]]]);
});

Deno.test("a jump past the join distance starts a new polyline; single points are dropped", () => {
  const edges = [
    laid("L", 0, 0, 1, 0, null),
    laid("L", 10, 0, 1, 0, null),
    laid("L", 10 + DRIVEN_MAX_JOIN_M + 1, 0, 1, 0, null),
    laid("L", 100, 0, 1, 0, null),
    laid("L", 110, 0, 1, 0, null),
  ];
  // Without tw the record itself is the best guess of where the car was.
  assert.deepEqual(drivenLine(edges), [[[0, 0], [10, 0]], [[100, 0], [110, 0]]]);
  assert.deepEqual(drivenLine([]), []);
  // No heading: nothing to step back along, so the record stays where it is.
  assert.deepEqual(drivenLine([{ ...laid("L", 0, 0, 0, 0, 1.6) }, laid("L", 3, 0, 0, 0, 1.6)]), [
    [[0, 0], [3, 0]],
  ]);
});
