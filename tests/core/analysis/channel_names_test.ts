import { strict as assert } from "node:assert";
import {
  CHANNEL_NAMES,
  channelNameSchema,
  channelRefusal,
  isChannelName,
} from "../../../src/core/analysis/channel_names.ts";
import { checkChannels } from "../../../src/core/analysis/distance_grid.ts";
import { SAMPLE_COLUMNS } from "../../../src/core/laps/columns.ts";

Deno.test("the channel names are every sample channel but t and dist, in canonical order", () => {
  assert.deepEqual(CHANNEL_NAMES, SAMPLE_COLUMNS.slice(2));
  assert.deepEqual(SAMPLE_COLUMNS.slice(0, 2), ["t", "dist"]);
  assert.equal(CHANNEL_NAMES.length, 38);
  assert.deepEqual(channelNameSchema.options, CHANNEL_NAMES);
  for (const name of CHANNEL_NAMES) assert.ok(isChannelName(name), name);
  for (const name of ["t", "dist", "wings", "", "Speed"]) assert.ok(!isChannelName(name), name);
});

Deno.test("the schema and the engine's check refuse a name in the same words", () => {
  for (const bad of ["wings", "t", "dist", ""]) {
    const words = `"${bad}" is not a sample channel (t and dist are implied by the grid)`;
    assert.equal(channelRefusal(bad), words);
    assert.equal(channelNameSchema.safeParse(bad).error?.issues[0].message, words, bad);
    assert.throws(
      () => checkChannels(["speed", bad]),
      (e: unknown) =>
        e instanceof Error && "issues" in e &&
        JSON.stringify(e.issues) === JSON.stringify([{ path: "channels[1]", message: words }]),
    );
  }
});
