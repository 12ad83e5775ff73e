import { strict as assert } from "node:assert";
import fc from "fast-check";
import { headingOf, wheelContacts } from "../../../src/core/survey/contacts.ts";

Deno.test("contact points: fronts ahead, rears behind, left wheels on the car's left", () => {
  // Heading +x: the car's left is -z (gt7/handedness.ts).
  const p = wheelContacts(10, 20, 1, 0, 2.6, 1.6);
  assert.deepEqual([...p], [11.3, 19.2, 11.3, 20.8, 8.7, 19.2, 8.7, 20.8]);
});

Deno.test("every contact point is hypot(wb/2, tw/2) from the car", () => {
  fc.assert(fc.property(
    fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
    fc.double({ min: 1, max: 4, noNaN: true }),
    fc.double({ min: 0.8, max: 2.4, noNaN: true }),
    (x, z, h, wb, tw) => {
      const p = wheelContacts(x, z, Math.sin(h), Math.cos(h), wb, tw);
      const want = Math.hypot(wb / 2, tw / 2);
      for (let w = 0; w < 4; w++) {
        assert.ok(Math.abs(Math.hypot(p[2 * w] - x, p[2 * w + 1] - z) - want) < 1e-6);
      }
    },
  ));
});

Deno.test("headingOf needs horizontal motion", () => {
  assert.deepEqual(headingOf(3, 4), [0.6, 0.8]);
  assert.equal(headingOf(0, 0), null);
  assert.equal(headingOf(NaN, 1), null);
});
