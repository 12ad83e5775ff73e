import { strict as assert } from "node:assert";
import fc from "fast-check";
import { cellKey } from "../../../src/core/bundle/cell.ts";
import { assembleBundleSide, compileBundle } from "../../../src/core/geometry/compile.ts";
import { parseCompiled } from "../../../src/core/geometry/schema.ts";
import type { CompiledTrack } from "../../../src/core/geometry/types.ts";
import { type Circuit, generateCircuit } from "../../../src/core/synthetic/circuit.ts";
import { borderCells, bundleOf, circuitCentre, ovalCentre } from "./_cells.ts";

const OPTS = { compiledAt: "2026-11-21T12:00:00.000Z", appVersion: "0.1.0" };

function vertices(doc: CompiledTrack) {
  return doc.centerline.flat();
}

/** One closed chain per side, no gaps, full coverage. */
function assertWhole(doc: CompiledTrack): void {
  for (const side of ["L", "R"] as const) {
    assert.equal(doc.borders[side].length, 1, `${side}: one border polyline`);
    assert.equal(doc.gaps[side].length, 0, `${side}: no gaps`);
    assert.equal(doc.coverage[side].pct, 100);
    assert.equal(doc.coverage[side].gap_m, 0);
    assert.equal(doc.coverage[side].closed, true);
    const line = doc.borders[side][0];
    assert.deepEqual(line[line.length - 1], line[0], `${side}: the polyline closes on itself`);
  }
  assert.equal(doc.centerline.length, 1);
}

Deno.test("a ring of radius 100 and width 10: closed sides, centerline on r=100, width 10", () => {
  const doc = compileBundle(bundleOf(borderCells(ovalCentre(100, 100, 10, 5))), OPTS);
  assertWhole(doc);
  // Outer (left: the ring is driven anticlockwise in x, z) is 2*pi*105 long, inner 2*pi*95.
  assert.equal(doc.coverage.L.surveyed_m, 659.7);
  assert.equal(doc.coverage.R.surveyed_m, 596.9);
  assert.equal(doc.coverage.road_pct, 100);
  assert.equal(doc.centerline[0].length, 165);
  assert.equal(doc.road.length, 164);
  for (const [x, z, y, w] of vertices(doc)) {
    assert.ok(Math.abs(Math.hypot(x, z) - 100) < 1, `centre ${x},${z}`);
    assert.ok(Math.abs(w - 10) <= 0.5, `width ${w}`);
    assert.equal(y, 5);
  }
  assert.deepEqual(parseCompiled(JSON.parse(JSON.stringify(doc))), doc);
});

Deno.test("an oval ring: closed sides, centerline within 1 m of the true one", () => {
  const centre = ovalCentre(220, 90, 12);
  const doc = compileBundle(bundleOf(borderCells(centre)), OPTS);
  assertWhole(doc);
  assert.equal(doc.coverage.road_pct, 100);
  for (const [x, z, , w] of vertices(doc)) {
    let best = Infinity;
    for (const p of centre) best = Math.min(best, Math.hypot(p.x - x, p.z - z));
    assert.ok(best < 1, `centre off by ${best}`);
    assert.ok(Math.abs(w - 12) <= 0.5, `width ${w}`);
  }
});

Deno.test("elevation comes from whichever border knows it", () => {
  const cells = borderCells(ovalCentre(100, 100, 10), {
    y: (side) => side === "L" ? 5 : null,
  });
  const doc = compileBundle(bundleOf(cells), OPTS);
  assert.ok(vertices(doc).every((v) => v[2] === 5));
  assert.ok(doc.borders.R[0].every((v) => v[2] === null));
});

Deno.test("a 30 m hole in one border is one gap; the rest stays closed", () => {
  const cells = borderCells(ovalCentre(100, 100, 10), {
    holes: [{ side: "L", from: 100, to: 130 }],
  });
  const doc = compileBundle(bundleOf(cells), OPTS);
  assert.equal(doc.gaps.L.length, 1);
  assert.equal(doc.gaps.R.length, 0);
  assert.equal(doc.coverage.L.closed, true);
  assert.equal(doc.coverage.R.closed, true);
  assert.equal(doc.coverage.L.gap_m, 30.9);
  assert.equal(doc.coverage.L.pct, 95.3);
  assert.ok(doc.coverage.L.pct < 100);
  assert.equal(doc.coverage.R.pct, 100);
  // The gap is not drawn: one open polyline runs from one side of the hole round to the other.
  assert.equal(doc.borders.L.length, 1);
  const line = doc.borders.L[0];
  const [gx1, gz1, gx2, gz2] = doc.gaps.L[0];
  assert.ok(Math.hypot(line[0][0] - gx2, line[0][1] - gz2) < 0.2);
  assert.ok(Math.hypot(line[line.length - 1][0] - gx1, line[line.length - 1][1] - gz1) < 0.2);
  // The centerline does not cross the hole.
  for (const [x, z] of vertices(doc)) {
    const angle = Math.atan2(z, x);
    const along = (angle < 0 ? angle + 2 * Math.PI : angle) * 105;
    assert.ok(along < 100.5 || along > 129.5, `centre vertex inside the hole at ${along} m`);
  }
});

Deno.test("two fragments about 140 m apart stay two open chains per side", () => {
  const cells = borderCells(ovalCentre(100, 100, 10), {
    keep: [{ from: 0, to: 200 }, { from: 340, to: 540 }],
  });
  const doc = compileBundle(bundleOf(cells), OPTS);
  for (const side of ["L", "R"] as const) {
    assert.equal(doc.borders[side].length, 2);
    assert.equal(doc.gaps[side].length, 0);
    assert.equal(doc.coverage[side].closed, false);
    assert.equal(doc.coverage[side].pct, 100);
  }
  assert.equal(doc.centerline.length, 2);
});

Deno.test("cells of opposite sides never join, even 4 m apart", () => {
  const doc = bundleOf(borderCells(ovalCentre(100, 100, 4)));
  for (const side of ["L", "R"] as const) {
    const assembled = assembleBundleSide(doc, side);
    const radius = side === "L" ? 102 : 98;
    assert.equal(assembled.chains.length, 1);
    const inChains = assembled.chains[0].length;
    const cells = doc.edges.filter((e) => e.side === side).length;
    assert.ok(inChains >= 0.9 * cells, `${inChains} of ${cells} cells chained`);
    for (const p of assembled.chains[0]) {
      assert.ok(Math.abs(Math.hypot(p.x, p.z) - radius) < 0.01, `${side} point off its ring`);
    }
  }
});

Deno.test("compiling twice gives equal documents apart from compiled_at", () => {
  const bundle = bundleOf(borderCells(ovalCentre(150, 80, 11), {
    holes: [{ side: "R", from: 50, to: 70 }],
  }));
  const a = compileBundle(bundle, OPTS);
  const b = compileBundle(bundle, { ...OPTS, compiledAt: "2027-01-01T00:00:00.000Z" });
  assert.notEqual(a.compiled_at, b.compiled_at);
  assert.deepEqual({ ...a, compiled_at: "" }, { ...b, compiled_at: "" });
  assert.equal(
    JSON.stringify({ ...a, compiled_at: "" }),
    JSON.stringify({ ...b, compiled_at: "" }),
  );
});

Deno.test("property: any complete ring compiles to one closed chain per side at full coverage", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 60, max: 300 }),
      // Up to 2.5:1, so the tightest bend (rz^2 / rx) keeps a radius of at least 24 m.
      fc.double({ min: 1, max: 2.5, noNaN: true }),
      fc.integer({ min: 6, max: 16 }),
      (rz, stretch, width) => {
        const rx = Math.round(rz * stretch);
        const doc = compileBundle(bundleOf(borderCells(ovalCentre(rx, rz, width))), OPTS);
        assertWhole(doc);
        assert.ok(doc.coverage.road_pct >= 99, `road ${doc.coverage.road_pct}`);
        for (const [, , , w] of vertices(doc)) assert.ok(Math.abs(w - width) <= 0.5);
      },
    ),
    { numRuns: 12, seed: 5 },
  );
});

const circuits = new Map<number, Circuit>();
function circuit(seed: number): Circuit {
  let c = circuits.get(seed);
  if (c === undefined) circuits.set(seed, c = generateCircuit(seed));
  return c;
}

for (const seed of [1, 42]) {
  Deno.test(`synthetic circuit ${seed}, fully surveyed: closed sides, true centre and width, road >= 95 %`, () => {
    const c = circuit(seed);
    const doc = compileBundle(bundleOf(borderCells(circuitCentre(c))), OPTS);
    assertWhole(doc);
    assert.ok(doc.coverage.road_pct >= 95, `road_pct ${doc.coverage.road_pct}`);
    assert.equal(doc.coverage.road_pct, 100);
    let worstCentre = 0;
    let worstWidth = 0;
    for (const [x, z, y, w] of vertices(doc)) {
      const at = c.locate(x, z);
      assert.ok(at !== null, `centre vertex ${x},${z} off the road`);
      worstCentre = Math.max(worstCentre, Math.abs(at.lateral));
      worstWidth = Math.max(worstWidth, Math.abs(w - at.width));
      assert.ok(y !== null);
    }
    assert.ok(worstCentre < 1, `centre off by ${worstCentre}`);
    assert.ok(worstWidth <= 0.5, `width off by ${worstWidth}`);
    // Samples every 4 m of the left border cover its whole length.
    const left = doc.coverage.L.surveyed_m;
    assert.ok(Math.abs(doc.centerline[0].length - Math.floor(left / 4) - 1) <= 1);
  });
}

Deno.test("synthetic circuit with a 30 m hole in the right border: one gap, the rest closed", () => {
  const c = circuit(42);
  const doc = compileBundle(
    bundleOf(borderCells(circuitCentre(c), { holes: [{ side: "R", from: 1000, to: 1030 }] })),
    OPTS,
  );
  assert.equal(doc.gaps.R.length, 1);
  assert.equal(doc.gaps.L.length, 0);
  assert.ok(doc.coverage.R.pct < 100);
  assert.ok(doc.coverage.R.gap_m > 20 && doc.coverage.R.gap_m < 40, `gap ${doc.coverage.R.gap_m}`);
  assert.equal(doc.coverage.R.closed, true);
  assert.equal(doc.coverage.L.closed, true);
  assert.equal(doc.coverage.L.pct, 100);
  assert.ok(doc.coverage.road_pct >= 95 && doc.coverage.road_pct < 100);
});

Deno.test("synthetic circuit surveyed in two separate stretches: two open chains per side", () => {
  const c = circuit(1);
  const doc = compileBundle(
    bundleOf(
      borderCells(circuitCentre(c), { keep: [{ from: 0, to: 1500 }, { from: 2500, to: 3500 }] }),
    ),
    OPTS,
  );
  for (const side of ["L", "R"] as const) {
    assert.equal(doc.borders[side].length, 2, side);
    assert.equal(doc.coverage[side].closed, false);
    assert.equal(doc.gaps[side].length, 0);
  }
});

Deno.test("walls, finish line and corners", () => {
  const cells = borderCells(ovalCentre(100, 100, 10), { kind: "wall" });
  const doc = compileBundle(
    bundleOf(cells, {
      finish: [
        { x: 100, z: 0, hx: 0, hz: 1, lap: 2 },
        { x: 102, z: 0, hx: 0, hz: 1, lap: 3 },
      ],
      corners: [{
        n: 1,
        name: "Hairpin",
        direction: "L",
        apex: { x: 0, z: 100 },
        entry: null,
        exit: null,
        note: "",
      }],
    }),
    OPTS,
  );
  assert.equal(doc.walls.length, cells.length);
  const [x1, z1, x2, z2] = doc.walls[0];
  assert.ok(Math.abs(Math.hypot(x2 - x1, z2 - z1) - 1.8) < 0.15);
  // Mean position (101, 0), heading +z: 12 m either side along (hz, -hx) = (1, 0).
  assert.deepEqual(doc.finish, [89, 0, 113, 0]);
  assert.deepEqual(doc.corners, [{ n: 1, name: "Hairpin", x: 0, z: 100 }]);
  assert.equal(doc.border_kinds.L.length, 1);
  assert.equal(doc.border_kinds.L[0].kind, "wall");
  assertWhole(doc);
});

Deno.test("an empty bundle compiles to empty geometry with zero coverage", () => {
  const doc = compileBundle(bundleOf([]), OPTS);
  assert.deepEqual(doc.borders, { L: [], R: [] });
  assert.deepEqual(doc.centerline, []);
  assert.deepEqual(doc.road, []);
  assert.equal(doc.finish, null);
  assert.deepEqual(doc.coverage, {
    L: { surveyed_m: 0, gap_m: 0, pct: 0, closed: false },
    R: { surveyed_m: 0, gap_m: 0, pct: 0, closed: false },
    road_pct: 0,
  });
  assert.equal(doc.slug, "test-circuit");
  assert.deepEqual(doc.source, {
    points: 0,
    runs: 1,
    sources: 1,
    bundle_updated_at: "2026-11-21T12:00:00.000Z",
    app_version: "0.1.0",
  });
});

Deno.test("a circuit surveyed twice, the passes 0.8 m apart, still gives one closed chain per side", () => {
  const c = circuit(1);
  const centre = circuitCentre(c);
  const shifted = (by: number) =>
    borderCells(centre).map((e) => ({
      ...e,
      x: Math.round((e.x + e.hz * by) * 1000) / 1000,
      z: Math.round((e.z - e.hx * by) * 1000) / 1000,
    }));
  const seen = new Set<number>();
  const cells = [...shifted(0.4), ...shifted(-0.4)].filter((e) => {
    const key = cellKey(e.x, e.z, e.side);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const doc = compileBundle(bundleOf(cells), OPTS);
  for (const side of ["L", "R"] as const) {
    assert.equal(doc.borders[side].length, 1, side);
    assert.equal(doc.coverage[side].closed, true);
    assert.equal(doc.coverage[side].pct, 100);
    // Counted once, not once per pass: within 2 % of the single-pass length.
    const single = compileBundle(bundleOf(borderCells(centre)), OPTS).coverage[side].surveyed_m;
    assert.ok(Math.abs(doc.coverage[side].surveyed_m / single - 1) < 0.02, side);
  }
  assert.ok(doc.coverage.road_pct >= 95, `road_pct ${doc.coverage.road_pct}`);
});
