import { strict as assert } from "node:assert";
import fc from "fast-check";
import { createRng, deriveSeed } from "../../../src/core/synthetic/random.ts";

Deno.test("createRng: the same seed gives the same sequence", () => {
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      const a = createRng(seed);
      const b = createRng(seed);
      for (let i = 0; i < 50; i++) assert.equal(a.next(), b.next());
    }),
  );
});

Deno.test("createRng: draws stay in their ranges", () => {
  const rng = createRng(42);
  for (let i = 0; i < 10_000; i++) {
    const u = rng.next();
    assert.ok(u >= 0 && u < 1);
    const r = rng.range(-3, 5);
    assert.ok(r >= -3 && r < 5);
    const k = rng.int(7);
    assert.ok(Number.isInteger(k) && k >= 0 && k < 7);
  }
});

Deno.test("createRng: uniform enough for shapes (mean and buckets)", () => {
  const rng = createRng(7);
  const buckets = new Array(10).fill(0);
  let sum = 0;
  const n = 100_000;
  for (let i = 0; i < n; i++) {
    const u = rng.next();
    sum += u;
    buckets[Math.floor(u * 10)]++;
  }
  assert.ok(Math.abs(sum / n - 0.5) < 0.01);
  for (const b of buckets) assert.ok(Math.abs(b - n / 10) < n / 100, `bucket ${b}`);
});

Deno.test("createRng: different seeds give different sequences", () => {
  const a = createRng(1);
  const b = createRng(2);
  const sa = Array.from({ length: 8 }, () => a.next());
  const sb = Array.from({ length: 8 }, () => b.next());
  assert.notDeepEqual(sa, sb);
});

Deno.test("deriveSeed: deterministic 32-bit values, distinct per salt", () => {
  assert.equal(deriveSeed(5, 1), deriveSeed(5, 1));
  const seen = new Set<number>();
  for (let salt = 0; salt < 1000; salt++) {
    const s = deriveSeed(5, salt);
    assert.ok(Number.isInteger(s) && s >= 0 && s <= 0xffffffff);
    seen.add(s);
  }
  assert.equal(seen.size, 1000);
});
