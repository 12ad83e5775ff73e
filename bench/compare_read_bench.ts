/**
 * What `GET /api/analysis/compare` costs the logger for the compare page's
 * heaviest view (issue 28): five 6,000-sample laps read from the store and
 * compared on a 1 m grid with the page's nine channels, then written as
 * JSON. The laps are the Suzuka capture's lap stored five times (as the
 * browser test stores them) in an in-memory store; reading is most of the
 * work, so it is printed on its own too. Figures are printed (median of 30
 * runs after 5 warm-up runs) before the Deno.bench table. The page's own
 * target (five laps drawn <= 300 ms from the click) is measured in
 * tests/web/pages_browser_test.ts; this is the server's share of it.
 *
 * @module
 */
import { createApp } from "../src/app/create_app.ts";
import { openCaptureFile } from "../src/core/gt7/capture_file.ts";
import { getLap } from "../src/storage/laps.ts";
import { readFixture } from "../tests/_fixtures.ts";
import { medianMsAsync } from "./_median.ts";

const RUNS = 30;
const WARMUP = 5;
const CHANNELS = [
  "speed",
  "throttle",
  "brake",
  "gear",
  "rpm",
  "steer",
  "tire_slip",
  "pos_x",
  "pos_z",
] as const;

const kv = await Deno.openKv(":memory:");
const app = await createApp({ kv });
const imported = await app.laps.importCapture(
  openCaptureFile(readFixture("gt7/suzuka-full-lap.A.gt7.gz")),
);
const [first] = await app.sessions.laps(imported.sessions[0]);
const file = await app.laps.exportFile(first.id);
const ids = [first.id];
for (let k = 0; k < 4; k++) ids.push((await app.laps.importFile(file)).lap.id);
const samples = (await getLap(kv, first.id))!.samples.t.length;

const read = () => Promise.all(ids.map((id) => getLap(kv, id)));
const answer = async () =>
  JSON.stringify(await app.analysis.compare({ laps: ids, channels: CHANNELS }));
const bytes = (await answer()).length;
const readMs = await medianMsAsync(read, RUNS, WARMUP);
const answerMs = await medianMsAsync(answer, RUNS, WARMUP);
console.log(
  `compare route's work, five ${samples}-sample laps, 9 channels: ${answerMs.toFixed(1)} ms ` +
    `(reading the five laps ${readMs.toFixed(1)} ms), ${(bytes / 1e6).toFixed(2)} MB of JSON`,
);

Deno.bench("read five 6,000-sample laps from the store", async () => {
  await read();
});
Deno.bench("compare five laps with nine channels, as JSON", async () => {
  await answer();
});
