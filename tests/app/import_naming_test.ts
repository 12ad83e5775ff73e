/**
 * Every import names its session as live naming would (issue 36, item 5):
 * the lap file import (HTTP and the command line share it), the capture
 * import and the `--record` import. Named from the real laps of the shared
 * fixtures and from perturbed copies of them (started 10-20 m past the
 * line, moved aside, noisy, holed, at another sample rate) when the rules
 * are sure; left unnamed when two configurations fit or the lap is too
 * short to tell; and a name the file carries is never replaced.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { join } from "node:path";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { referenceLineOf } from "../../src/core/catalog/reference_lines.ts";
import { configurationById } from "../../src/core/catalog/tracks.ts";
import { openCaptureFile } from "../../src/core/gt7/capture_file.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { ReferenceIndex } from "../../src/core/identify/reference_index.ts";
import type { LapSamples } from "../../src/core/laps/columns.ts";
import { listLaps } from "../../src/storage/laps.ts";
import { getSession, listSessions } from "../../src/storage/sessions.ts";
import { buildRecordFile, encryptAll } from "../_capture_files.ts";
import { noFixtures, readGzFixture } from "../_fixtures.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { seededRandom } from "../_random.ts";
import { captureFrames, recordLaps, samplesOfFrames } from "../core/identify/_laps.ts";

const NOW = new Date("2026-11-28T12:00:00.000Z");
const SUZUKA = "gt7/suzuka-full-lap.A.gt7.gz";
const BRANDS_INDY = "gt7/encrypted/brands-hatch--indy-circuit.A.gt7";

async function withApp(
  fn: (app: App, events: AppEvent[]) => Promise<void>,
  references?: ReferenceIndex,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => NOW, references });
  const events: AppEvent[] = [];
  app.bus.subscribe((e) => events.push(e));
  try {
    await fn(app, events);
  } finally {
    await app.live.flush();
    await app.tracks.fingerprints.idle();
    kv.close();
  }
}

/** A lap file of `samples` (lap time from their time axis), with `track_name` when given. */
function lapFileOf(samples: LapSamples, track_name = "") {
  const time_ms = Math.round(samples.t[samples.t.length - 1] * 1000);
  return minimalLapFile(samples.t.length, { time_ms, samples, track_name });
}

/** The Brands Hatch Indy lap: 82 positions at most 50 m apart, as a 1.5 Hz recorder keeps them. */
function brandsIndy(): LapSamples {
  return samplesOfFrames(captureFrames(BRANDS_INDY));
}

/** The whole Suzuka lap of the 60 Hz capture. */
function suzuka(): LapSamples {
  return recordLaps(captureFrames(SUZUKA))[0].samples;
}

/** How a fixture lap is perturbed into one another recorder might bring. */
interface Perturbation {
  /** Metres past the line the lap starts (its first stretch moved to its end). */
  start_m: number;
  /** Every this many samples kept (60 / rate). */
  every: number;
  /** Shift of every position, metres. */
  dx: number;
  dz: number;
  /** Uniform noise on each coordinate, +- metres. */
  noise_m: number;
  /** Share of the lap where a hole of `hole_share` of its samples starts. */
  hole_at: number;
  hole_share: number;
  seed: number;
}

/** `lap` perturbed by `p`; time keeps running forwards, positions and speeds move. */
function perturbed(lap: LapSamples, p: Perturbation): LapSamples {
  const n = lap.t.length;
  let start = 0;
  while (start < n - 1 && lap.dist[start] - lap.dist[0] < p.start_m) start++;
  const order = [...Array(n).keys()].map((i) => (i + start) % n);
  const holeFrom = Math.floor(p.hole_at * n);
  const holeTo = holeFrom + Math.floor(p.hole_share * n);
  const kept: number[] = [];
  for (let k = 0; k < n; k += p.every) if (k < holeFrom || k >= holeTo) kept.push(k);
  const random = seededRandom(p.seed);
  const columns: Record<string, number[]> = {};
  for (const [name, column] of Object.entries(lap)) {
    if (!Array.isArray(column)) continue;
    columns[name] = kept.map((k) => column[name === "t" ? k : order[k]] as number);
  }
  columns.pos_x = columns.pos_x.map((x) => x + p.dx + (random() * 2 - 1) * p.noise_m);
  columns.pos_z = columns.pos_z.map((z) => z + p.dz + (random() * 2 - 1) * p.noise_m);
  return columns as unknown as LapSamples;
}

/** Suzuka's line as itself and as its East Course: a Suzuka lap fits both. */
function ambiguousIndex(): ReferenceIndex {
  const line = referenceLineOf("6e378b")!;
  return new ReferenceIndex([line, {
    ...line,
    configuration: configurationById("4414cb")!,
    twins: [],
  }]);
}

Deno.test({
  name: "a lap file of the real Brands Hatch Indy lap, unnamed, is named from its reference line",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const result = await app.laps.importFile(lapFileOf(brandsIndy()));
      // Thinned to the shape: incomplete, so only live naming's matcher can name it.
      assert.equal(result.lap.complete, false);
      assert.deepEqual(
        [result.session.track_name, result.session.track_source, result.session.kind],
        ["Brands Hatch Indy Circuit", "reference", "imported"],
      );
      assert.deepEqual(await getSession(app.kv, result.session.id), result.session);
    });
  },
});

Deno.test({
  name: "the command line's lap file import names it too (files.importFile, what `import` runs)",
  ignore: noFixtures,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const path = join(dir, "indy.json");
      await Deno.writeTextFile(path, JSON.stringify(lapFileOf(brandsIndy())));
      await withApp(async (app) => {
        const done = await app.files.importFile(path);
        assert.equal(done.kind, "lap");
        const [session] = await listSessions(app.kv);
        assert.deepEqual([session.track_name, session.track_source], [
          "Brands Hatch Indy Circuit",
          "reference",
        ]);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a name the lap file carries is never replaced, even where a reference line fits",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const result = await app.laps.importFile(lapFileOf(brandsIndy(), "Brands Hatch"));
      assert.deepEqual([result.session.track_name, result.session.track_source], [
        "Brands Hatch",
        "user",
      ]);
    });
  },
});

Deno.test({
  name: "a complete Suzuka lap file takes the user's signature over the reference line",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const first = await app.laps.importFile(lapFileOf(suzuka()));
      assert.deepEqual([first.session.track_name, first.session.track_source, first.lap.complete], [
        "Suzuka Circuit",
        "reference",
        true,
      ]);
      await app.tracks.create({ name: "My Suzuka", lap_id: first.lap.id });
      const second = await app.laps.importFile(lapFileOf(suzuka()));
      assert.deepEqual([second.session.track_name, second.session.track_source], [
        "My Suzuka",
        "signature",
      ]);
    });
  },
});

Deno.test({
  name: "left unnamed when unsure: two configurations fit, or a third of a lap",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const result = await app.laps.importFile(lapFileOf(suzuka()));
      assert.deepEqual([result.session.track_name, result.session.track_source], ["", ""]);
    }, ambiguousIndex());
    await withApp(async (app) => {
      const lap = suzuka();
      const third = Object.fromEntries(
        Object.entries(lap).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, v.length / 3) : v]),
      ) as unknown as LapSamples;
      const result = await app.laps.importFile(lapFileOf(third));
      assert.deepEqual([result.session.track_name, result.session.track_source], ["", ""]);
    });
  },
});

const PERTURBED: Perturbation = {
  start_m: 15,
  every: 3,
  dx: 3,
  dz: -3,
  noise_m: 0.5,
  hole_at: 0.5,
  hole_share: 0.02,
  seed: 36,
};

Deno.test({
  name: "a Suzuka lap from elsewhere: 15 m past the line, 20 Hz, moved 4 m, noisy, holed: named",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const lap = perturbed(suzuka(), PERTURBED);
      const result = await app.laps.importFile(lapFileOf(lap));
      assert.equal(result.lap.complete, false);
      assert.deepEqual([result.session.track_name, result.session.track_source], [
        "Suzuka Circuit",
        "reference",
      ]);
    });
  },
});

Deno.test({
  name:
    "perturbed fixture laps: started 10-20 m past the line, named; moved 10-20 m, never wrongly",
  ignore: noFixtures,
  async fn() {
    const laps: [string, LapSamples][] = [
      ["Suzuka Circuit", suzuka()],
      ["Brands Hatch Indy Circuit", brandsIndy()],
    ];
    await withApp(async (app) => {
      await app.tracks.warmReferences();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...laps),
          fc.record({
            start_m: fc.double({ min: 10, max: 20, noNaN: true }),
            every: fc.integer({ min: 1, max: 6 }),
            noise_m: fc.double({ min: 0, max: 1, noNaN: true }),
            hole_at: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
            seed: fc.integer({ min: 0, max: 1000 }),
            angle: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
            shift_m: fc.double({ min: 10, max: 20, noNaN: true }),
          }),
          async ([name, lap], q) => {
            // The thinned Brands Hatch lap is kept whole: it has no samples to spare.
            const base = { ...q, every: lap === laps[1][1] ? 1 : q.every, dx: 0, dz: 0 };
            const started = perturbed(lap, { ...base, hole_share: 0.02 });
            assert.deepEqual(await app.tracks.namingOf({ samples: started, complete: false }), {
              name,
              source: "reference",
            });
            const moved = perturbed(lap, {
              ...base,
              hole_share: 0,
              dx: q.shift_m * Math.cos(q.angle),
              dz: q.shift_m * Math.sin(q.angle),
            });
            const naming = await app.tracks.namingOf({ samples: moved, complete: false });
            assert.ok(naming === null || naming.name === name, JSON.stringify([name, q, naming]));
          },
        ),
        { numRuns: 40, seed: 36 },
      );
    });
  },
});

Deno.test({
  name: "a --record import whose Suzuka lap lost 3 s of packets is named as live naming names it",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, events) => {
      const packets = parseCapture(readGzFixture(SUZUKA)).packets;
      // 180 packets lost mid-lap (about 250 m): the lap is stored incomplete.
      const kept = [...packets.slice(0, 3000), ...packets.slice(3180)];
      const start = Date.parse("2026-11-28T10:00:00.000Z");
      const bytes = buildRecordFile(
        start,
        encryptAll(kept).map((d, i) => [start + Math.round(i * 1000 / 60), d] as const),
      );
      const result = await app.laps.importCapture(openCaptureFile(bytes));
      assert.equal(result.kind, "record");
      assert.deepEqual(result.sessions, [1]);
      const [lap] = await listLaps(app.kv, 1);
      assert.equal(lap.complete, false);
      assert.deepEqual(result.named, [{ session: 1, track: "Suzuka Circuit" }]);
      const session = (await getSession(app.kv, 1))!;
      assert.deepEqual([session.track_name, session.track_source, session.kind], [
        "Suzuka Circuit",
        "reference",
        "imported",
      ]);
      const identified = events.filter((e) => e.type === "session" && e.reason === "identified");
      assert.equal(identified.length, 1);
    });
  },
});

Deno.test("a lap file of positions no circuit has (1e20 m) imports unnamed, at once", async () => {
  await withApp(async (app) => {
    const n = 600;
    const samples = minimalLapFile(n).lap.samples as unknown as Record<string, number[]>;
    samples.pos_x = samples.pos_x.map((_, i) => (i % 2 === 0 ? 1e20 : -1e20));
    samples.pos_z = samples.pos_z.map((_, i) => i * 1e19);
    const result = await app.laps.importFile(minimalLapFile(n, { time_ms: 10_000, samples }));
    assert.deepEqual([result.session.track_name, result.session.track_source], ["", ""]);
  });
});
