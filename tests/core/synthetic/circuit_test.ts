import { strict as assert } from "node:assert";
import { type Circuit, generateCircuit } from "../../../src/core/synthetic/circuit.ts";

const SEEDS = Array.from({ length: 20 }, (_, i) => i * 7919 - 40);
const circuits = new Map<number, Circuit>();
function circuit(seed: number): Circuit {
  let c = circuits.get(seed);
  if (!c) {
    c = generateCircuit(seed);
    circuits.set(seed, c);
  }
  return c;
}

interface P {
  x: number;
  z: number;
}

/** Independent brute-force check: do two non-adjacent segments of the closed polyline meet? */
function crossings(points: P[]): number {
  const n = points.length;
  const segs = points.map((p, i) => {
    const q = points[(i + 1) % n];
    return {
      i,
      ax: p.x,
      az: p.z,
      bx: q.x,
      bz: q.z,
      minX: Math.min(p.x, q.x),
      maxX: Math.max(p.x, q.x),
    };
  });
  segs.sort((a, b) => a.minX - b.minX);
  const side = (ax: number, az: number, bx: number, bz: number, px: number, pz: number) =>
    Math.sign((bx - ax) * (pz - az) - (bz - az) * (px - ax));
  let found = 0;
  for (let a = 0; a < segs.length; a++) {
    const s = segs[a];
    for (let b = a + 1; b < segs.length && segs[b].minX <= s.maxX; b++) {
      const t = segs[b];
      const d = Math.abs(s.i - t.i);
      if (d <= 1 || d === n - 1) continue;
      if (
        side(s.ax, s.az, s.bx, s.bz, t.ax, t.az) !== side(s.ax, s.az, s.bx, s.bz, t.bx, t.bz) &&
        side(t.ax, t.az, t.bx, t.bz, s.ax, s.az) !== side(t.ax, t.az, t.bx, t.bz, s.bx, s.bz)
      ) found++;
    }
  }
  return found;
}

Deno.test("generateCircuit: the same seed gives the same circuit", () => {
  const a = generateCircuit(123);
  const b = generateCircuit(123);
  assert.equal(a.length, b.length);
  assert.deepEqual(a.arrays, b.arrays);
  assert.equal(a.kerbWidth, b.kerbWidth);
});

Deno.test("generateCircuit: different seeds give different circuits", () => {
  const lengths = new Set(SEEDS.map((s) => circuit(s).length.toFixed(3)));
  assert.equal(lengths.size, SEEDS.length);
});

Deno.test("generateCircuit: 3-5 km long, 10-14 m wide, closed, evenly stationed", () => {
  for (const seed of SEEDS) {
    const c = circuit(seed);
    assert.ok(c.length >= 3000 && c.length <= 5000, `seed ${seed}: length ${c.length}`);
    const a = c.arrays;
    let sum = 0;
    for (let i = 0; i < c.count; i++) {
      const j = (i + 1) % c.count;
      const seg = Math.hypot(a.x[j] - a.x[i], a.z[j] - a.z[i]);
      assert.ok(seg > 1.8 && seg < 2.2, `seed ${seed}: segment ${i} is ${seg} m`);
      sum += seg;
      assert.ok(a.width[i] >= 10 && a.width[i] <= 14, `seed ${seed}: width ${a.width[i]}`);
      if (i > 0) {
        assert.ok(
          Math.abs(a.s[i] - a.s[i - 1] - Math.hypot(a.x[i] - a.x[i - 1], a.z[i] - a.z[i - 1])) <
            1e-9,
        );
      }
      assert.ok(Math.abs(Math.hypot(a.tx[i], a.tz[i]) - 1) < 1e-9);
    }
    assert.ok(Math.abs(sum - c.length) < 1e-6, `seed ${seed}: closed length`);
    assert.equal(a.s[0], 0);
    assert.ok(c.kerbWidth >= 1 && c.kerbWidth <= 1.5);
  }
});

Deno.test("generateCircuit: centre line and both borders never cross themselves", () => {
  for (const seed of SEEDS) {
    const c = circuit(seed);
    assert.equal(crossings(c.centreLine()), 0, `seed ${seed}: centre`);
    assert.equal(crossings(c.leftBorder()), 0, `seed ${seed}: left`);
    assert.equal(crossings(c.rightBorder()), 0, `seed ${seed}: right`);
  }
});

Deno.test("generateCircuit: separate stretches of road keep grass between them", () => {
  for (const seed of SEEDS.slice(0, 8)) {
    const c = circuit(seed);
    const a = c.arrays;
    const n = c.count;
    // Points more than 100 m apart along the lap stay more than a road and two kerbs apart.
    const keep = 14 + 2 * c.kerbWidth;
    for (let i = 0; i < n; i += 3) {
      for (let j = i + 50; j < n; j += 3) {
        if (n - (j - i) <= 50) continue;
        const d = Math.hypot(a.x[j] - a.x[i], a.z[j] - a.z[i]);
        assert.ok(d > keep, `seed ${seed}: stations ${i} and ${j} only ${d} m apart`);
      }
    }
  }
});

Deno.test("generateCircuit: curvature matches the geometry and the line sits on a straight", () => {
  for (const seed of SEEDS) {
    const c = circuit(seed);
    const a = c.arrays;
    let turning = 0;
    let maxK = 0;
    for (let i = 0; i < c.count; i++) {
      turning += a.curvature[i] * (c.length / c.count);
      maxK = Math.max(maxK, Math.abs(a.curvature[i]));
    }
    // A simple closed loop turns through exactly one full turn.
    assert.ok(Math.abs(Math.abs(turning) - 2 * Math.PI) < 0.05, `seed ${seed}: ${turning}`);
    assert.ok(1 / maxK >= 22, `seed ${seed}: radius ${1 / maxK}`);
    for (let d = -20; d <= 20; d++) {
      const k = a.curvature[(d + c.count) % c.count];
      assert.ok(Math.abs(k) < 1 / 300, `seed ${seed}: curved start/finish (${k})`);
    }
    // Left is the inside of a left-turning loop: its border is the shorter one.
    const len = (pts: { x: number; z: number }[]) =>
      pts.reduce((s, p, i) => {
        const q = pts[(i + 1) % pts.length];
        return s + Math.hypot(q.x - p.x, q.z - p.z);
      }, 0);
    const left = len(c.leftBorder());
    const right = len(c.rightBorder());
    if (turning > 0) assert.ok(left < right, `seed ${seed}: left ${left} right ${right}`);
    else assert.ok(right < left, `seed ${seed}: left ${left} right ${right}`);
  }
});

Deno.test("generateCircuit: kerbs lie on the inside of tight corners and exist on most circuits", () => {
  let withKerbs = 0;
  for (const seed of SEEDS) {
    const c = circuit(seed);
    const a = c.arrays;
    let kerbs = 0;
    for (let i = 0; i < c.count; i++) {
      assert.ok(!(a.kerbLeft[i] && a.kerbRight[i]), `seed ${seed}: kerbs on both sides at ${i}`);
      if (a.kerbLeft[i]) {
        kerbs++;
        assert.ok(a.curvature[i] > -1e-3, `seed ${seed}: left kerb in a right turn at ${i}`);
      }
      if (a.kerbRight[i]) {
        kerbs++;
        assert.ok(a.curvature[i] < 1e-3, `seed ${seed}: right kerb in a left turn at ${i}`);
      }
      if (Math.abs(a.curvature[i]) > 1 / 60) {
        assert.ok(a.curvature[i] > 0 ? a.kerbLeft[i] : a.kerbRight[i], `seed ${seed}: apex ${i}`);
      }
    }
    if (kerbs > 0) withKerbs++;
  }
  assert.ok(withKerbs >= 18, `${withKerbs} of ${SEEDS.length} circuits have kerbs`);
});

Deno.test("generateCircuit: gentle hills that close on themselves", () => {
  for (const seed of SEEDS) {
    const c = circuit(seed);
    const a = c.arrays;
    for (let i = 0; i < c.count; i++) {
      const j = (i + 1) % c.count;
      const grade = (a.y[j] - a.y[i]) / (c.length / c.count);
      assert.ok(Math.abs(grade) < 0.05, `seed ${seed}: grade ${grade} at ${i}`);
    }
  }
});

Deno.test("Circuit: borders lie half a width either side of the centre line", () => {
  const c = circuit(SEEDS[3]);
  const left = c.leftBorder();
  const right = c.rightBorder();
  const centre = c.centreLine();
  for (let i = 0; i < c.count; i++) {
    const p = centre[i];
    assert.ok(Math.abs(Math.hypot(left[i].x - p.x, left[i].z - p.z) - p.width / 2) < 1e-9);
    assert.ok(Math.abs(Math.hypot(right[i].x - p.x, right[i].z - p.z) - p.width / 2) < 1e-9);
    // The road crosses the direction of travel.
    const dot = (left[i].x - right[i].x) * p.tx + (left[i].z - right[i].z) * p.tz;
    assert.ok(Math.abs(dot) < 1e-9);
    assert.equal(left[i].y, p.y);
  }
});

Deno.test("Circuit.surfaceAt: tarmac inside, kerb strips where flagged, grass beyond", () => {
  for (const seed of SEEDS.slice(0, 6)) {
    const c = circuit(seed);
    for (const st of c.centreLine()) {
      const lx = st.tz;
      const lz = -st.tx;
      const at = (off: number) => c.surfaceAt(st.x + lx * off, st.z + lz * off);
      const half = st.width / 2;
      assert.equal(at(0), "T");
      assert.equal(at(half - 0.1), "T");
      assert.equal(at(-(half - 0.1)), "T");
      assert.equal(at(half + c.kerbWidth / 2), st.kerbLeft ? "C" : "G", `seed ${seed} ${st.index}`);
      assert.equal(at(-(half + c.kerbWidth / 2)), st.kerbRight ? "C" : "G");
      assert.equal(at(half + c.kerbWidth + 0.2), "G");
      assert.equal(at(-(half + c.kerbWidth + 0.2)), "G");
    }
    const a = c.arrays;
    let minX = Infinity;
    for (const x of a.x) minX = Math.min(minX, x);
    assert.equal(c.surfaceAt(minX - 500, 0), "G");
  }
});

Deno.test("Circuit.locate and pointAt agree with the stations", () => {
  const c = circuit(SEEDS[5]);
  for (let i = 0; i < c.count; i += 37) {
    const st = c.station(i);
    const off = 3.25;
    const loc = c.locate(st.x + st.tz * off, st.z - st.tx * off)!;
    assert.ok(Math.abs(loc.lateral - off) < 0.02, `${loc.lateral}`);
    assert.ok(Math.abs(loc.s - st.s) < 0.25 || Math.abs(Math.abs(loc.s - st.s) - c.length) < 0.25);
    const p = c.pointAt(st.s + 3 * c.length);
    assert.ok(Math.hypot(p.x - st.x, p.z - st.z) < 1e-6);
    assert.ok(Math.abs(p.width - st.width) < 1e-9);
  }
  assert.equal(c.locate(c.station(0).x + 1000, c.station(0).z + 1000), null);
  assert.deepEqual(c.station(-1), c.station(c.count - 1));
});

Deno.test("generateCircuit: refuses a non-integer seed", () => {
  assert.throws(() => generateCircuit(1.5), RangeError);
});
