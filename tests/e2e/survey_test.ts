import { strict as assert } from "node:assert";
import type { BundleV4 } from "../../src/core/bundle/types.ts";
import type { BorderPoint, Circuit } from "../../src/core/synthetic/circuit.ts";
import { planDrive } from "../../src/core/synthetic/drive.ts";
import type { SurveyStatus } from "../../src/app/survey/survey_status.ts";
import { getJson, replayInto } from "./harness.ts";
import type { CompiledTrack } from "../../src/core/geometry/types.ts";

/** Distance from (x, z) to the closed polyline `border`. */
function distanceTo(border: readonly BorderPoint[], x: number, z: number): number {
  let best = Infinity;
  for (let i = 0; i < border.length; i++) {
    const a = border[i];
    const b = border[(i + 1) % border.length];
    const dx = b.x - a.x;
    const dz = b.z - a.z;
    const len2 = dx * dx + dz * dz;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - a.x) * dx + (z - a.z) * dz) / len2)) : 0;
    best = Math.min(best, Math.hypot(x - a.x - dx * t, z - a.z - dz * t));
  }
  return best;
}

/** Share of the border's stations (one per centre-line station) with a cell of that side within `reach` m. */
function coverage(
  border: readonly BorderPoint[],
  cells: { x: number; z: number }[],
  reach: number,
) {
  const grid = new Map<string, { x: number; z: number }[]>();
  const key = (x: number, z: number) => `${Math.floor(x / reach)},${Math.floor(z / reach)}`;
  for (const c of cells) {
    const k = key(c.x, c.z);
    grid.get(k)?.push(c) ?? grid.set(k, [c]);
  }
  let covered = 0;
  for (const p of border) {
    const cx = Math.floor(p.x / reach);
    const cz = Math.floor(p.z / reach);
    let hit = false;
    for (let dx = -1; dx <= 1 && !hit; dx++) {
      for (let dz = -1; dz <= 1 && !hit; dz++) {
        hit = (grid.get(`${cx + dx},${cz + dz}`) ?? []).some((c) =>
          Math.hypot(c.x - p.x, c.z - p.z) <= reach
        );
      }
    }
    if (hit) covered++;
  }
  return covered / border.length;
}

function worst(circuit: Circuit, doc: BundleV4): { L: number; R: number } {
  const left = circuit.leftBorder();
  const right = circuit.rightBorder();
  const out = { L: 0, R: 0 };
  for (const e of doc.edges) {
    const d = distanceTo(e.side === "L" ? left : right, e.x, e.z);
    out[e.side] = Math.max(out[e.side], d);
  }
  return out;
}

Deno.test("the synthetic survey drive, replayed over UDP, surveys its own circuit", async () => {
  const seed = 7;
  const plan = planDrive({ seed, mode: "survey" });
  const circuit = plan.circuit;
  let started: Promise<unknown> = Promise.resolve();
  // Frames the logger had taken in before the survey started: the replay may send a few
  // before the hook runs (tests/e2e/harness.ts), and how many depends on the scheduler.
  let before = -1;
  const { logger, result } = await replayInto(`synthetic:${seed}:survey`, {
    speed: 20,
    before: (logger) => {
      // Through the app service, whose tap is attached synchronously: from here, not a frame
      // is missed.
      const last = logger.app.live.lastFrame;
      before = last === null ? 0 : last.packetId - plan.startPacketId + 1;
      started = logger.app.survey.start({ track: "Synthetic 7" });
      return Promise.resolve();
    },
  });
  try {
    const start = await started as SurveyStatus;
    assert.equal(start.running, true);
    assert.equal(start.run, 1);
    assert.equal(result.sent, plan.totalFrames);
    const status = await getJson<SurveyStatus>(logger, "/api/survey");
    console.log(`survey e2e: ${before} frames arrived before the survey started`);
    assert.equal(status.frames, plan.totalFrames - before);
    // The synthetic car's track is 1.64 m; cornering measures it exactly.
    assert.equal(status.tw_source, "cornering");
    assert.equal(status.tw_m, 1.64);
    // Two rollovers (1 -> 2 and 2 -> 3) a few metres apart: confident after two laps.
    assert.equal(status.finish?.crossings, 2);
    assert.equal(status.finish?.confident, true);
    assert.ok(status.finish!.spread_m <= 15);

    const stop = await fetch(`${logger.http.url}/api/survey/stop`, { method: "POST" });
    const stopped = await stop.json() as SurveyStatus;
    assert.equal(stop.status, 200);
    assert.equal(stopped.running, false);
    assert.equal(stopped.last_save?.reason, "stop");
    const doc = await getJson<BundleV4>(logger, "/api/track-bundles/synthetic-7");
    assert.equal(doc.meta.track, "Synthetic 7");
    assert.equal(doc.meta.runs, 1);
    assert.equal(doc.edges.length, status.cells);
    assert.equal(doc.finish_crossings.length, 2);

    const far = worst(circuit, doc);
    const left = doc.edges.filter((e) => e.side === "L");
    const right = doc.edges.filter((e) => e.side === "R");
    const covL = coverage(circuit.leftBorder(), left, 3);
    const covR = coverage(circuit.rightBorder(), right, 3);
    console.log(
      `survey e2e: ${doc.edges.length} cells (L ${left.length}, R ${right.length}); ` +
        `worst distance from the true border L ${far.L.toFixed(3)} m, R ${far.R.toFixed(3)} m; ` +
        `coverage L ${(covL * 100).toFixed(1)} %, R ${(covR * 100).toFixed(1)} %`,
    );
    assert.ok(
      far.L <= 1.5 && far.R <= 1.5,
      `a cell lies ${Math.max(far.L, far.R)} m off its border`,
    );
    // Straddled wheels sit 0.35 m beyond the edge; nothing strays further than the overhang.
    assert.ok(far.L < 0.4 && far.R < 0.4);
    assert.ok(covL >= 0.95, `left coverage ${covL}`);
    assert.ok(covR >= 0.95, `right coverage ${covR}`);
    // Issue 5: the surveyed bundle compiles to a road over at least 95 % of the lap.
    const compiled = await getJson<CompiledTrack>(
      logger,
      "/api/track-bundles/synthetic-7/compiled",
    );
    console.log(
      `survey e2e compiled: road_pct ${compiled.coverage.road_pct}, ` +
        `L ${compiled.coverage.L.pct} % R ${compiled.coverage.R.pct} %`,
    );
    assert.ok(compiled.coverage.road_pct >= 95, `road_pct ${compiled.coverage.road_pct}`);
    // Every vote is this installation's first run, once.
    for (const e of doc.edges) {
      for (const bySource of Object.values(e.votes)) {
        assert.deepEqual(Object.values(bySource!), [[1, 1]]);
      }
    }
  } finally {
    await logger.close();
  }
});
