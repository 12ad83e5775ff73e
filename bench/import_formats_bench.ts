/**
 * Lap import of another tool's file (issue 39): a 50-lap gt7dashboard save
 * (the fixtures' four Broad Bean laps over and over, 98,000 samples, about
 * 24 MB of JSON) imported end to end through the use case into an
 * in-memory store: recognise, parse, put on the 60 Hz grid, name the
 * session, store every lap. Target: under 1 s. The figure is printed once
 * (median of 3 runs after a warm-up) and registered as a Deno.bench entry.
 *
 * @module
 */
import { createApp } from "../src/app/create_app.ts";
import { readLapImport } from "../src/core/laps/import/recognise.ts";
import { readFixture } from "../tests/_fixtures.ts";

const LAPS = 50;
const TARGET_MS = 1000;
const RUNS = 3;

/** The 50-lap save: the fixture's laps in turn, numbered 1 to 50. */
function fiftyLapSave(): Uint8Array {
  const four = JSON.parse(
    new TextDecoder().decode(readFixture("gt7/broad-bean-raceway-4-laps.json")),
  ) as Record<string, unknown>[];
  const laps = Array.from({ length: LAPS }, (_, i) => ({ ...four[i % 4], number: i + 1 }));
  return new TextEncoder().encode(JSON.stringify(laps));
}

const bytes = fiftyLapSave();

async function importOnce(): Promise<number> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv });
    const start = performance.now();
    const r = await app.laps.importBytes(bytes);
    const ms = performance.now() - start;
    if (r.imported.length !== LAPS) throw new Error(`imported ${r.imported.length} laps`);
    return ms;
  } finally {
    kv.close();
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

await importOnce();
const times: number[] = [];
for (let i = 0; i < RUNS; i++) times.push(await importOnce());
const parse: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  readLapImport(bytes);
  parse.push(performance.now() - start);
}
const ms = median(times);
console.log(
  `import of a ${LAPS}-lap gt7dashboard save (${(bytes.length / 1e6).toFixed(1)} MB): ` +
    `${ms.toFixed(0)} ms end to end (median of ${RUNS}; target < ${TARGET_MS} ms: ` +
    `${ms < TARGET_MS ? "met" : "NOT met"}), of which reading and converting ` +
    `${median(parse).toFixed(0)} ms`,
);

// A few iterations: each is a whole import, and the figure above is the one the table quotes.
Deno.bench({
  name: `${LAPS}-lap gt7dashboard save, imported end to end`,
  n: 3,
  warmup: 1,
  async fn() {
    await importOnce();
  },
});
