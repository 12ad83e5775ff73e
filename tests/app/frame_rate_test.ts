import { strict as assert } from "node:assert";
import {
  checkFrameRate,
  DEFAULT_HZ,
  HZ_RULE,
  MAX_HZ,
  MIN_HZ,
} from "../../src/app/live/frame_rate.ts";
import { BadRequest } from "../../src/core/errors.ts";
import { getLive } from "../../src/server/routes/live.ts";

Deno.test("a frame rate is a whole number from 1 to 60, 10 by default", () => {
  assert.deepEqual([MIN_HZ, MAX_HZ, DEFAULT_HZ], [1, 60, 10]);
  assert.equal(HZ_RULE, "must be a whole number from 1 to 60");
  for (const hz of [1, 10, 60]) checkFrameRate(hz);
  for (const hz of [0, 61, 1.5, NaN, -1]) {
    assert.throws(() => checkFrameRate(hz), (e: unknown) => {
      assert.ok(e instanceof BadRequest);
      assert.equal(e.message, "hz must be a whole number from 1 to 60");
      assert.deepEqual(e.issues, [{ path: "hz", message: HZ_RULE }]);
      return true;
    }, String(hz));
  }
});

Deno.test("the live route's query holds the same range and default", () => {
  const hz = getLive.query.shape.hz;
  assert.equal(hz.parse(undefined), DEFAULT_HZ);
  assert.equal(hz.parse(String(MIN_HZ)), MIN_HZ);
  assert.equal(hz.parse(String(MAX_HZ)), MAX_HZ);
  for (const text of [String(MIN_HZ - 1), String(MAX_HZ + 1)]) {
    const issue = hz.safeParse(text).error?.issues[0];
    assert.equal(issue?.message, HZ_RULE, text);
  }
});
