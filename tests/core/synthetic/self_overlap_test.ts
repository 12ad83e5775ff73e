import { strict as assert } from "node:assert";
import {
  comesTooClose,
  segmentsIntersect,
  selfIntersects,
} from "../../../src/core/synthetic/self_overlap.ts";

function ring(n: number, r: number) {
  const x = new Float64Array(n);
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = r * Math.cos(2 * Math.PI * i / n);
    z[i] = r * Math.sin(2 * Math.PI * i / n);
  }
  return { x, z };
}

Deno.test("segmentsIntersect: crossing, touching, disjoint and collinear cases", () => {
  assert.equal(segmentsIntersect(0, 0, 2, 2, 0, 2, 2, 0), true);
  assert.equal(segmentsIntersect(0, 0, 1, 0, 1, 0, 1, 5), true);
  assert.equal(segmentsIntersect(0, 0, 1, 0, 2, 0, 3, 0), false);
  assert.equal(segmentsIntersect(0, 0, 2, 0, 1, 0, 3, 0), true);
  assert.equal(segmentsIntersect(0, 0, 1, 1, 0, 1, 1, 2), false);
});

Deno.test("selfIntersects: a ring does not cross itself, a figure eight does", () => {
  assert.equal(selfIntersects(ring(400, 100), true), false);
  const n = 400;
  const x = new Float64Array(n);
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = 2 * Math.PI * i / n;
    x[i] = 100 * Math.sin(t);
    z[i] = 100 * Math.sin(t) * Math.cos(t);
  }
  assert.equal(selfIntersects({ x, z }, true), true);
});

Deno.test("selfIntersects: collinear points along a straight are not a crossing", () => {
  const x = Float64Array.from([0, 1, 2, 3, 4, 5, 5, 0]);
  const z = Float64Array.from([0, 0, 0, 0, 0, 0, 3, 3]);
  assert.equal(selfIntersects({ x, z }, true), false);
});

Deno.test("comesTooClose: a hairpin whose legs pinch together is caught", () => {
  // Out along z=0, round a 5 m radius, back along z=10: legs 10 m apart.
  const xs: number[] = [];
  const zs: number[] = [];
  for (let s = 0; s < 200; s += 2) {
    xs.push(s);
    zs.push(0);
  }
  for (let a = 0; a < Math.PI; a += 0.4) {
    xs.push(200 + 5 * Math.sin(a));
    zs.push(5 - 5 * Math.cos(a));
  }
  for (let s = 200; s > 0; s -= 2) {
    xs.push(s);
    zs.push(10);
  }
  const line = { x: Float64Array.from(xs), z: Float64Array.from(zs) };
  assert.equal(comesTooClose(line, 2, 25, 50), true);
  assert.equal(comesTooClose(line, 2, 8, 50), false);
  assert.equal(comesTooClose(ring(600, 200), 2 * Math.PI * 200 / 600, 25, 50), false);
});
