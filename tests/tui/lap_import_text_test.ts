import { strict as assert } from "node:assert";
import { join } from "node:path";
import { lapImportText } from "../../src/tui/lap_import_text.ts";
import { formatLapTime } from "../../src/core/laps/lap_time.ts";
import { noFixtures, readFixture } from "../_fixtures.ts";
import { memoryApp } from "./_harness.tsx";

Deno.test({
  name: "the dashboard's import line names each skipped lap with the import's own reason",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const save = JSON.parse(new TextDecoder().decode(
      readFixture("gt7/broad-bean-raceway-4-laps.json"),
    )) as Record<string, unknown>[];
    // A fifth lap of one sample: no lap, so the import leaves it out.
    const stub = Object.fromEntries(
      Object.entries(save[0]).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, 1) : v]),
    );
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(join(dir, "five.json"), JSON.stringify([...save, stub]));
    const done = await app.files.importFile("five.json", { dir });
    assert.equal(done.kind, "lap");
    if (done.kind !== "lap") return;
    const r = done.result;
    assert.equal(r.imported.length, 4);
    assert.equal(r.skipped.length, 1);
    assert.equal(r.skipped[0].lap, 5);
    assert.equal(
      lapImportText(done),
      `imported 4 laps (${r.imported.map((l) => formatLapTime(l.time_ms)).join(", ")}) ` +
        `into new session ${r.session.id} from a gt7dashboard save; ` +
        "skipped lap 5: holds 1 sample, not a lap",
    );
    close();
    await Deno.remove(dir, { recursive: true });
  },
});
