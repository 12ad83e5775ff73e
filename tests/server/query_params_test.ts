import { strict as assert } from "node:assert";
import { z } from "zod";
import { BadRequest } from "../../src/core/errors.ts";
import { problemOf } from "../../src/server/problem.ts";
import { intParamSchema, parseQuery } from "../../src/server/query_params.ts";
import { compareQuerySchema } from "../../src/server/queries/analysis_queries.ts";
import { distanceGrid } from "../../src/core/analysis/distance_grid.ts";

const limit = z.object({ limit: intParamSchema(1, 1000) });

/** The problem document of parsing `raw` with `schema`, which must refuse it. */
function refusal(schema: z.ZodObject, raw: Record<string, string>) {
  try {
    parseQuery(schema, raw);
  } catch (err) {
    assert.ok(err instanceof BadRequest);
    return problemOf(err);
  }
  assert.fail(`${JSON.stringify(raw)} was accepted`);
}

Deno.test("a whole-number parameter takes every JSON spelling of its value", () => {
  for (const text of ["100", "1e2", "1E2", "1e+2", "100.0", "1000e-1", "0100"]) {
    assert.deepEqual(parseQuery(limit, { limit: text }), { limit: 100 }, text);
  }
  assert.deepEqual(parseQuery(limit, { limit: "1e3" }), { limit: 1000 });
  for (const text of ["1e4", "0", "-1", "2.5", "1e", ".5", "+1", "0x10", "1_0", " 1", "", "NaN"]) {
    const problem = refusal(limit, { limit: text });
    assert.equal(problem.detail, "limit must be a whole number from 1 to 1000", text);
    assert.deepEqual(problem.errors, [{
      path: "limit",
      message: "must be a whole number from 1 to 1000",
    }]);
  }
  // Long enough to be a number only by absurd spelling: refused, never parsed.
  assert.equal(refusal(limit, { limit: "1" + "0".repeat(40) + "e-40" }).status, 400);
});

Deno.test("step takes every JSON spelling of a number >= 0.1, refused in one wording", () => {
  const step = (text: string) => parseQuery(compareQuerySchema, { laps: "1", step: text }).step;
  assert.equal(step("1e3"), 1000);
  assert.equal(step("1E3"), 1000);
  assert.equal(step("2.5e-1"), 0.25);
  assert.equal(step("0.1"), 0.1);
  assert.equal(step("5"), 5);
  for (const text of ["0.01", "0.05", "1e-2", "-1", "0", "fast", "1e999", ""]) {
    const problem = refusal(compareQuerySchema, { laps: "1", step: text });
    assert.equal(problem.detail, "step must be a number of metres >= 0.1", text);
    assert.deepEqual(problem.errors, [{
      path: "step",
      message: "must be a number of metres >= 0.1",
    }]);
  }
  // The engine, called directly with too fine a step, words it the same way.
  try {
    distanceGrid(100, 0.01);
    assert.fail("accepted");
  } catch (err) {
    assert.deepEqual(problemOf(err).errors, [{
      path: "step",
      message: "must be a number of metres >= 0.1",
    }]);
    assert.equal(problemOf(err).detail, "step must be a number of metres >= 0.1");
  }
});

Deno.test("channels are a comma-separated list of the engine's names, a fault at its index", () => {
  const channels = (text: string) =>
    parseQuery(compareQuerySchema, { laps: "1", channels: text }).channels;
  assert.deepEqual(channels("speed,gear,speed"), ["speed", "gear", "speed"]);
  assert.deepEqual(channels("water_temp"), ["water_temp"]);
  for (
    const [text, path, name] of [
      ["speed,wings", "channels[1]", "wings"],
      ["dist", "channels[0]", "dist"],
      ["", "channels[0]", ""],
      ["speed,", "channels[1]", ""],
    ]
  ) {
    const problem = refusal(compareQuerySchema, { laps: "1", channels: text });
    const message = `"${name}" is not a sample channel (t and dist are implied by the grid)`;
    assert.deepEqual(problem.errors, [{ path, message }], text);
    assert.equal(problem.detail, `${path} ${message}`, text);
  }
});
