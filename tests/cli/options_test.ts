import { strict as assert } from "node:assert";
import { idArgument } from "../../src/cli/options.ts";

Deno.test("idArgument takes a positive whole number and names the id it refuses", () => {
  assert.equal(idArgument("1", "lap"), 1);
  assert.equal(idArgument("40", "session"), 40);
  for (const bad of ["0", "07", "-1", "1.5", "1e3", " 3", "3 ", "", "x"]) {
    assert.throws(() => idArgument(bad, "lap"), {
      message: `lap id must be a positive integer, not "${bad}"`,
    });
  }
  assert.throws(() => idArgument("0", "session"), {
    message: 'session id must be a positive integer, not "0"',
  });
});
