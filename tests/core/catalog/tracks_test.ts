import { strict as assert } from "node:assert";
import {
  CATALOG_COUNTS,
  configurationById,
  CONFIGURATIONS,
} from "../../../src/core/catalog/tracks.ts";
import { nameScore, nameTokens, suggestOfficial } from "../../../src/core/catalog/suggest.ts";

Deno.test("the catalogue holds 41 circuits, 85 layouts and 121 configurations with unique ids", () => {
  assert.deepEqual(CATALOG_COUNTS, { tracks: 41, layouts: 85, configurations: 121 });
  assert.equal(CONFIGURATIONS.length, 121);
  assert.equal(new Set(CONFIGURATIONS.map((c) => c.official_id)).size, 121);
  assert.equal(new Set(CONFIGURATIONS.map((c) => c.track)).size, 41);
  assert.equal(CONFIGURATIONS.filter((c) => c.reverse).length, 121 - 85);
});

Deno.test("configurations carry the official facts, reverse layouts as their own entries", () => {
  assert.deepEqual(configurationById("4414cb"), {
    track: "Suzuka Circuit",
    country: "JPN",
    layout: "East Course",
    official_id: "4414cb",
    official_name: "Suzuka Circuit East Course",
    turns: 9,
    length_m: 2243,
    reverse: false,
  });
  const forward = configurationById("81f860")!;
  const reverse = configurationById("ef9ee9")!;
  assert.equal(forward.official_name, "Alsace - Village");
  assert.equal(reverse.official_name, "Alsace - Village (Reverse)");
  assert.equal(reverse.reverse, true);
  assert.equal(reverse.length_m, forward.length_m);
  assert.equal(configurationById("1fb373")?.length_m, 1665);
  assert.equal(configurationById("nope"), null);
  assert.ok(Object.isFrozen(CONFIGURATIONS) && Object.isFrozen(CONFIGURATIONS[0]));
});

Deno.test("names score by their tokens: identical 1, otherwise the F1 of the token sets", () => {
  assert.deepEqual(nameTokens("Lago Maggiore - East End"), ["lago", "maggiore", "east", "end"]);
  assert.deepEqual(nameTokens("Nürburgring"), ["nürburgring"]);
  assert.equal(nameScore("Autopolis", "autopolis"), 1);
  assert.equal(nameScore("Suzuka East", "Suzuka Circuit East Course"), 2 * 2 / 6);
  assert.equal(nameScore("Spa", "Tsukuba"), 0);
  assert.equal(nameScore("", "Tsukuba"), 0);
});

Deno.test("Autopolis at 4674 m is the full course with confidence 1; at 1200 m it is less sure", () => {
  const full = suggestOfficial("Autopolis", 4674)!;
  assert.equal(full.official_id, "1d0c5e");
  assert.equal(full.confidence, 1);
  assert.match(full.why, /4674 m against the official 4674 m/);
  const short = suggestOfficial("Autopolis", 1200);
  assert.ok(short === null || short.confidence < 1);
  assert.equal(short?.confidence, 0.6);
});

Deno.test("forward and reverse layouts get different suggestions", () => {
  assert.equal(suggestOfficial("Alsace Village", 5400)?.official_id, "81f860");
  assert.equal(suggestOfficial("Alsace Village Reverse", 5400)?.official_id, "ef9ee9");
});

Deno.test("the length separates the layouts of one circuit; an unknown name suggests nothing", () => {
  assert.equal(suggestOfficial("Suzuka", 2189)?.official_id, "4414cb");
  assert.equal(suggestOfficial("Suzuka", 5752)?.official_id, "6e378b");
  assert.equal(suggestOfficial("Broad Bean Raceway", 1643)?.official_id, "1fb373");
  assert.equal(suggestOfficial("My Test Ring", 4000), null);
  assert.equal(suggestOfficial("Suzuka Circuit", null)?.confidence, 1);
});
