import { strict as assert } from "node:assert";
import { resolveAnchors } from "../../../src/core/analysis/anchors.ts";
import { authoredCorners, DEFAULT_WINDOW_M } from "../../../src/core/analysis/corners_authored.ts";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { detectCorners } from "../../../src/core/analysis/corners_detect.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import type { Corner, Point } from "../../../src/core/bundle/types.ts";
import { noFixtures } from "../../_fixtures.ts";
import { broadBeanLaps, driveLap, steered, suzukaLap } from "./_laps.ts";

function corner(n: number, name: string, apex: Point, extra: Partial<Corner> = {}): Corner {
  return { n, name, direction: null, apex, entry: null, exit: null, note: "", ...extra };
}

Deno.test({
  name: "Suzuka: authored corners replace detected ones, with the default window clipped",
  ignore: noFixtures,
  fn() {
    const trace = traceOf(suzukaLap().samples);
    const detected = detectCorners(trace);
    assert.equal(detected.length, 20);
    const t1 = detected[0];
    const hairpin = detected.find((c) => c.apex_m > 2840 && c.apex_m < 2980)!;
    const [chicaneIn, chicaneOut] = detected.slice(17, 19);
    const authored = [
      corner(1, "First Curve", t1.apex),
      corner(2, "Hairpin", hairpin.apex),
      corner(3, "", chicaneIn.apex, { direction: "R" }),
      corner(4, "Casio Triangle exit", chicaneOut.apex),
    ];
    const got = lapCorners(trace, authored);
    assert.equal(got.source, "authored");
    assert.deepEqual(got.corners.map((c) => [c.n, c.name, c.direction]), [
      [1, "First Curve", "R"],
      [2, "Hairpin", "L"],
      [3, "Turn 3", "R"],
      [4, "Casio Triangle exit", "L"],
    ]);
    const [a, b, c, d] = got.corners;
    // Each apex is where this lap passed its anchor: the very point it was taken from.
    assert.ok(Math.abs(a.apex_m - t1.apex_m) < 0.5);
    assert.ok(Math.abs(b.apex_m - hairpin.apex_m) < 0.5);
    // Far from neighbours the window is 75 m each side of the apex.
    assert.equal(a.entry_m, a.apex_m - DEFAULT_WINDOW_M);
    assert.equal(a.exit_m, a.apex_m + DEFAULT_WINDOW_M);
    assert.equal(b.exit_m, b.apex_m + DEFAULT_WINDOW_M);
    // The chicane's apexes are 53 m apart: the windows meet at their midpoint.
    assert.ok(d.apex_m - c.apex_m < 2 * DEFAULT_WINDOW_M);
    assert.equal(c.exit_m, (c.apex_m + d.apex_m) / 2);
    assert.equal(d.entry_m, c.exit_m);
    assert.equal(c.entry_m, c.apex_m - DEFAULT_WINDOW_M);
  },
});

Deno.test({
  name: "Broad Bean: corners authored on one lap are found on the others where they drove them",
  ignore: noFixtures,
  fn() {
    const [first, ...others] = broadBeanLaps();
    const mine = detectCorners(traceOf(first.samples));
    const authored = mine.map((c, i) =>
      corner(i + 1, `C${i + 1}`, c.apex, { entry: c.entry, exit: c.exit, direction: c.direction })
    );
    for (const lap of others) {
      const trace = traceOf(lap.samples);
      const theirs = detectCorners(trace);
      const got = lapCorners(trace, authored);
      assert.equal(got.source, "authored");
      assert.equal(got.corners.length, 4);
      for (const [i, c] of got.corners.entries()) {
        assert.equal(c.name, `C${i + 1}`);
        // The same bend: this lap's own detected apex lies inside the authored window.
        assert.ok(
          c.entry_m < theirs[i].apex_m && theirs[i].apex_m < c.exit_m,
          `lap ${lap.id} C${i + 1}`,
        );
        // Explicit anchors are used as authored, not the default window.
        assert.ok(
          Math.abs(c.entry_m - mine[i].entry_m * trace.length / traceOf(first.samples).length) < 15,
        );
      }
    }
  },
});

Deno.test("authored corners the lap never passed are left out; none passed means detected", () => {
  const path = steered([[400, 0], [Math.PI * 40, 1 / 40], [400, 0]]);
  const trace = traceOf(driveLap(path, { speed: () => 120 }));
  const apex = { x: trace.samples.pos_x[600], z: trace.samples.pos_z[600] };
  const far = { x: 5000, z: 5000 };
  const got = lapCorners(trace, [corner(1, "Far", far), corner(2, "Real", apex)]);
  assert.equal(got.source, "authored");
  assert.deepEqual(got.corners.map((c) => c.name), ["Real"]);
  const none = lapCorners(trace, [corner(1, "Far", far)]);
  assert.equal(none.source, "lap");
  assert.equal(none.corners.length, 1);
  assert.equal(none.corners[0].direction, "L");
  assert.equal(lapCorners(trace, []).source, "lap");
});

Deno.test("on a hairpin whose legs run 20 m apart, entry and exit anchors keep their order", () => {
  // Up 500 m, a 10 m radius U-turn to the left, back down 500 m: the legs are 20 m apart.
  const path = steered([[500, 0], [Math.PI * 10, 1 / 10], [500, 0]]);
  const samples = driveLap(path, { speed: () => 80 });
  const trace = traceOf(samples);
  const at = (d: number) => {
    const i = samples.dist.findIndex((x) => x >= d);
    return { x: samples.pos_x[i], z: samples.pos_z[i] };
  };
  const turn = 500 + Math.PI * 5;
  // Entry 15 m before the turn on the way up, exit 15 m after it on the way down: 20 m apart.
  const entry = at(485);
  const exit = at(500 + Math.PI * 10 + 15);
  const [e, x] = resolveAnchors(trace, [entry, exit]);
  assert.ok(Math.abs(e! - 485) < 1, `entry at ${e}`);
  assert.ok(Math.abs(x! - (500 + Math.PI * 10 + 15)) < 1, `exit at ${x}`);
  // Asked in the other order, the exit anchor is found first on the way up.
  const [x2, e2] = resolveAnchors(trace, [exit, entry]);
  assert.ok(x2! < e2!);
  const got = authoredCorners(trace, [corner(1, "U", at(turn), { entry, exit })]);
  assert.equal(got.length, 1);
  assert.equal(got[0].direction, "L");
  assert.ok(got[0].entry_m < got[0].apex_m && got[0].apex_m < got[0].exit_m);
  assert.ok(Math.abs(got[0].apex_m - turn) < 1);
});
