import { strict as assert } from "node:assert";
import fc from "fast-check";
import { checkGates, signaturesMatch } from "../../../src/core/identify/gates.ts";
import type { SignatureShape } from "../../../src/core/identify/signature.ts";

// The stored signature of REFERENCE.md 5.2: width 800 m, depth 400 m, centre (0, 100).
const STORED: SignatureShape = { length_m: 4000, min_x: -400, max_x: 400, min_z: -100, max_z: 300 };

function lap(change: Partial<SignatureShape>): SignatureShape {
  return { ...STORED, ...change };
}

function shifted(dx: number, dz: number): SignatureShape {
  return lap({
    min_x: STORED.min_x + dx,
    max_x: STORED.max_x + dx,
    min_z: STORED.min_z + dz,
    max_z: STORED.max_z + dz,
  });
}

/** A lap box with the stored centre and the given width and depth. */
function sized(width: number, depth: number): SignatureShape {
  return lap({
    min_x: -width / 2,
    max_x: width / 2,
    min_z: 100 - depth / 2,
    max_z: 100 + depth / 2,
  });
}

function gateOf(l: SignatureShape): number | null {
  const v = checkGates(l, STORED);
  return v.match ? null : v.gate;
}

Deno.test("the reference cases: a near lap matches, a 5000 m lap or a box moved to x 600..1400 does not", () => {
  assert.equal(gateOf({ length_m: 4050, min_x: -395, max_x: 405, min_z: -98, max_z: 305 }), null);
  assert.equal(gateOf(lap({ length_m: 5000 })), 2);
  assert.equal(gateOf(lap({ min_x: 600, max_x: 1400 })), 3);
});

Deno.test("gate 1: both lengths must be greater than zero", () => {
  assert.equal(gateOf(lap({ length_m: 0 })), 1);
  assert.equal(gateOf(lap({ length_m: -4000 })), 1);
  assert.equal(checkGates(STORED, { ...STORED, length_m: 0 }).match, false);
  assert.equal(gateOf(lap({ length_m: Number.NaN })), 1);
  assert.equal(gateOf(lap({ length_m: 0.01 })), 2);
});

Deno.test("gate 2: the length may differ by 4 % of the stored length, not more, either way", () => {
  assert.equal(gateOf(lap({ length_m: 4160 })), null);
  assert.equal(gateOf(lap({ length_m: 4160.01 })), 2);
  assert.equal(gateOf(lap({ length_m: 3840 })), null);
  assert.equal(gateOf(lap({ length_m: 3839.99 })), 2);
});

Deno.test("gate 3: the centres may differ by 120 m on x, not more, either way", () => {
  assert.equal(gateOf(shifted(120, 0)), null);
  assert.equal(gateOf(shifted(120.01, 0)), 3);
  assert.equal(gateOf(shifted(-120, 0)), null);
  assert.equal(gateOf(shifted(-120.01, 0)), 3);
});

Deno.test("gate 3: the centres may differ by 120 m on z, not more, either way", () => {
  assert.equal(gateOf(shifted(0, 120)), null);
  assert.equal(gateOf(shifted(0, 120.01)), 3);
  assert.equal(gateOf(shifted(0, -120)), null);
  assert.equal(gateOf(shifted(0, -120.01)), 3);
  // Both axes at the limit at once still pass; each is judged on its own.
  assert.equal(gateOf(shifted(120, -120)), null);
});

Deno.test("gate 4: the width may differ by 20 % of the stored width, not more, either way", () => {
  assert.equal(gateOf(sized(960, 400)), null);
  assert.equal(gateOf(sized(960.02, 400)), 4);
  assert.equal(gateOf(sized(640, 400)), null);
  assert.equal(gateOf(sized(639.98, 400)), 4);
});

Deno.test("gate 4: the depth may differ by 20 % of the stored depth, not more, either way", () => {
  assert.equal(gateOf(sized(800, 480)), null);
  assert.equal(gateOf(sized(800, 480.02)), 4);
  assert.equal(gateOf(sized(800, 320)), null);
  assert.equal(gateOf(sized(800, 319.98)), 4);
});

Deno.test("gate 4 is skipped for a stored extent of zero, which has no scale", () => {
  const line: SignatureShape = { length_m: 4000, min_x: 0, max_x: 0, min_z: -100, max_z: 300 };
  assert.equal(checkGates({ ...line, min_x: -50, max_x: 50 }, line).match, true);
  assert.equal(checkGates({ ...line, max_z: 400, min_z: -200 }, line).match, false);
});

Deno.test("every signature matches itself, and the verdict ignores where both are", () => {
  const shape = fc.record({
    length_m: fc.double({ min: 1, max: 30_000, noNaN: true }),
    min_x: fc.double({ min: -5000, max: 5000, noNaN: true }),
    min_z: fc.double({ min: -5000, max: 5000, noNaN: true }),
    w: fc.double({ min: 1, max: 5000, noNaN: true }),
    d: fc.double({ min: 1, max: 5000, noNaN: true }),
  }).map(({ length_m, min_x, min_z, w, d }) => ({
    length_m,
    min_x,
    max_x: min_x + w,
    min_z,
    max_z: min_z + d,
  }));
  fc.assert(fc.property(shape, (s) => signaturesMatch(s, s)));
  fc.assert(
    fc.property(
      shape,
      shape,
      fc.integer({ min: -10_000, max: 10_000 }),
      fc.integer({ min: -10_000, max: 10_000 }),
      (a, b, dx, dz) => {
        const move = (s: SignatureShape) => ({
          ...s,
          min_x: s.min_x + dx,
          max_x: s.max_x + dx,
          min_z: s.min_z + dz,
          max_z: s.max_z + dz,
        });
        // Integer moves keep the differences exact enough for the verdict to hold.
        return checkGates(move(a), move(b)).match === checkGates(a, b).match ||
          Math.abs(((a.min_x + a.max_x) - (b.min_x + b.max_x)) / 2) > 119.99;
      },
    ),
  );
});
