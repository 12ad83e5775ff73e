import { strict as assert } from "node:assert";
import {
  noSectors,
  sectorCells,
  sectorFrame,
  sectorLapStored,
  type SectorState,
} from "../../src/web/live_sectors.js";

type Frame = { lap: number; sector: number | null; lap_clock_ms: number };

/** The state after `frames` from nothing, each frame's lap stored where `stored` says. */
function drive(frames: Frame[], s: SectorState = noSectors()): SectorState {
  return frames.reduce((acc, f) => sectorFrame(acc, f), s);
}

const f = (lap: number, sector: number | null, ms: number): Frame => ({
  lap,
  sector,
  lap_clock_ms: ms,
});

/** The best split per sector at this circuit, ms: 30.00, 28.00, 33.00. */
const BEST = [30_000, 28_000, 33_000];

Deno.test("opened in sector 2, the page never times sector 2 from the lap's start", () => {
  // Opened 40 s into lap 3 in sector 2; sector 3 starts at 58.73 s.
  const s = drive([f(3, 2, 40_000), f(3, 2, 50_000), f(3, 3, 58_730)]);
  assert.deepEqual(sectorCells(s, f(3, 3, 58_730), BEST), [
    { text: "S1 --", cls: "" },
    { text: "S2 --", cls: "" },
    { text: "S3 …", cls: "now" },
  ]);
});

Deno.test("opened early in sector 3, the lap's end does not time the whole lap as sector 3", () => {
  // Opened 80 s into lap 3 in sector 3; the lap ends at 93.80 s and is stored.
  let s = drive([f(3, 3, 80_000), f(3, 3, 93_783), f(4, 1, 0)]);
  s = sectorLapStored(s, 3, 93_800);
  assert.deepEqual(sectorCells(s, f(4, 1, 0), BEST), [
    { text: "S1 …", cls: "now" },
    { text: "S2 --", cls: "" },
    { text: "S3 --", cls: "" },
  ]);
  // Sector 1 of lap 4 starts at the line, so it is timed: 29.50 is under the best (purple).
  s = drive([f(4, 1, 10_000), f(4, 2, 29_500)], s);
  assert.deepEqual(sectorCells(s, f(4, 2, 29_500), BEST), [
    { text: "S1 29.50", cls: "pb" },
    { text: "S2 …", cls: "now" },
    { text: "S3 --", cls: "" },
  ]);
});

Deno.test("a lap seen whole: each split timed, the last closed by the stored time, coloured", () => {
  let s = drive([
    f(2, 1, 0),
    f(2, 2, 30_100), // S1 30.10: within 0.2 s of 30.00 (green)
    f(2, 3, 60_100), // S2 30.00: 2 s over 28.00 (red)
    f(3, 1, 0),
  ]);
  // The lap's last sector is closed by its stored time: 92.60 - 60.10 = 32.50 (purple).
  assert.deepEqual(sectorCells(s, f(3, 1, 0), BEST).map((c) => c.text), [
    "S1 30.10",
    "S2 30.00",
    "S3 --",
  ]);
  s = sectorLapStored(s, 2, 92_600);
  // The previous lap stands in while the current one has no split; no sector is marked `now`.
  assert.deepEqual(sectorCells(s, f(3, 1, 500), BEST), [
    { text: "S1 30.10", cls: "good" },
    { text: "S2 30.00", cls: "slow" },
    { text: "S3 32.50", cls: "pb" },
  ]);
  // Once lap 3 has a split, its own row is shown.
  s = sectorFrame(s, f(3, 2, 31_000));
  assert.deepEqual(sectorCells(s, f(3, 2, 31_000), BEST), [
    { text: "S1 31.00", cls: "slow" },
    { text: "S2 …", cls: "now" },
    { text: "S3 --", cls: "" },
  ]);
});

Deno.test("a lap stored before the next lap's first frame still closes its last sector", () => {
  let s = drive([f(5, 1, 0), f(5, 2, 31_000), f(5, 3, 60_000)]);
  s = sectorLapStored(s, 5, 95_000);
  s = sectorFrame(s, f(6, 1, 0));
  assert.deepEqual(sectorCells(s, f(6, 1, 0), BEST).map((c) => c.text), [
    "S1 31.00",
    "S2 29.00",
    "S3 35.00",
  ]);
});

Deno.test("without stored bests, a split is compared with the best this page timed", () => {
  let s = drive([f(1, 1, 0), f(1, 2, 31_000), f(1, 3, 60_000), f(2, 1, 0)]);
  s = sectorLapStored(s, 1, 90_000);
  s = drive([f(2, 2, 31_100), f(2, 3, 58_000)], s);
  // S1 31.10 against the page's 31.00 (green); S2 26.90 beats its 29.00 (purple).
  assert.deepEqual(sectorCells(s, f(2, 3, 58_000), []), [
    { text: "S1 31.10", cls: "good" },
    { text: "S2 26.90", cls: "pb" },
    { text: "S3 …", cls: "now" },
  ]);
  assert.deepEqual(s.timedBest, [31_000, 26_900, 30_000]);
});

Deno.test("a skipped sector or a lap jump leaves the sectors untimed; no sector plan shows dashes", () => {
  // Sector 1 straight to 3 (a cut, or frames lost): neither sector 1 nor 3's start is known.
  let s = drive([f(1, 1, 0), f(1, 3, 50_000), f(2, 1, 0)]);
  s = sectorLapStored(s, 1, 80_000);
  assert.deepEqual(sectorCells(s, f(2, 1, 0), BEST).map((c) => c.text), [
    "S1 …",
    "S2 --",
    "S3 --",
  ]);
  // A jump of two laps (a phone asleep): the old lap is not shown as the one before.
  s = drive([f(2, 2, 30_000), f(4, 2, 40_000)], s);
  assert.equal(s.previous, null);
  // Nothing before a lap or without a sector plan.
  assert.deepEqual(sectorCells(noSectors(), f(0, null, 0), []), [
    { text: "S1 --", cls: "" },
    { text: "S2 --", cls: "" },
    { text: "S3 --", cls: "" },
  ]);
});

Deno.test("a frame that changes nothing returns the same state", () => {
  const s = drive([f(1, 1, 0)]);
  assert.equal(sectorFrame(s, f(1, 1, 16)), s);
});

Deno.test("a change of sector seen only across missed frames (a phone asleep) is not timed", () => {
  const p = (lap: number, sector: number, ms: number, packet_id: number) => ({
    ...f(lap, sector, ms),
    packet_id,
  });
  // Asleep from 10 s into sector 1 to 45 s, in sector 2: when sector 1 ended is not known.
  let s = drive([p(7, 1, 0, 100), p(7, 1, 10_000, 700), p(7, 2, 45_000, 2800)]);
  assert.deepEqual(sectorCells(s, f(7, 2, 45_000), BEST).map((c) => c.text), [
    "S1 --",
    "S2 --",
    "S3 --",
  ]);
  // Ten packets apart (1/6 s) is close enough to time the change.
  s = drive([p(8, 1, 0, 5000), p(8, 1, 29_900, 6794), p(8, 2, 30_050, 6804)]);
  assert.deepEqual(sectorCells(s, f(8, 2, 30_050), BEST)[0], { text: "S1 30.05", cls: "good" });
});
