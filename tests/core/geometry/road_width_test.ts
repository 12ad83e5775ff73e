import { strict as assert } from "node:assert";
import { medianRoadWidthM } from "../../../src/core/geometry/road_width.ts";

Deno.test("a road's width is the median of its centreline widths over every run", () => {
  assert.equal(
    medianRoadWidthM({
      centerline: [[[0, 0, null, 10], [5, 0, null, 30]], [[9, 0, 1, 12], [12, 0, 1, 11]]],
    }),
    11.5,
  );
  assert.equal(medianRoadWidthM({ centerline: [[[0, 0, null, 14], [1, 0, null, 0]]] }), 14);
  assert.equal(medianRoadWidthM({ centerline: [] }), null);
});
