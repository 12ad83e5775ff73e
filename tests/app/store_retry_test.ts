/** The back-off of work the store refused: 1 s, doubling, capped at 30 s. */
import { strict as assert } from "node:assert";
import { RETRY_FIRST_MS, RETRY_MAX_MS, retryDelayMs } from "../../src/app/store/store_retry.ts";

Deno.test("retry waits double from 1 s and stop at 30 s", () => {
  assert.equal(RETRY_FIRST_MS, 1_000);
  assert.equal(RETRY_MAX_MS, 30_000);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 1_100].map(retryDelayMs), [
    1_000,
    2_000,
    4_000,
    8_000,
    16_000,
    30_000,
    30_000,
    30_000,
  ]);
});
