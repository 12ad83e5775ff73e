/**
 * Live naming: candidates are eliminated point by point and the
 * configuration is named once every candidate still standing agrees. On
 * every reference line replayed at 60 Hz it is never wrong: forwards it
 * names the line's own configuration (or the circuit, for twins) before the
 * lap ends, except where a longer layout holds the whole line; backwards the
 * reverse layout or nothing; on the first 40 % nothing or the right name.
 */
import { strict as assert } from "node:assert";
import {
  type ReferenceLine,
  referenceLineOf,
  referenceLines,
} from "../../../src/core/catalog/reference_lines.ts";
import { LIVE_MIN_M, LiveReferenceMatcher } from "../../../src/core/identify/live_match.ts";
import { replayLine, type ReplayOptions } from "../../../src/core/identify/reference_replay.ts";

const matcher = new LiveReferenceMatcher();

/** Feeds a replay frame by frame; returns every distinct answer with the metres it came at. */
function drive(line: ReferenceLine, opts: ReplayOptions = {}): { ids: string; at_m: number }[] {
  const lap = replayLine(line, opts);
  matcher.reset();
  const answers: { ids: string; at_m: number }[] = [];
  for (let i = 0; i < lap.pos_x.length; i++) {
    const m = matcher.push(lap.pos_x[i], lap.pos_z[i]);
    const ids = m === null ? "" : m.configurations.map((c) => c.official_id).join("+");
    if (ids !== (answers.at(-1)?.ids ?? "")) answers.push({ ids, at_m: matcher.driven_m });
  }
  return answers;
}

function own(line: ReferenceLine): string {
  return [line.configuration, ...line.twins].map((c) => c.official_id).sort().join("+");
}

Deno.test("live, every line driven forward is named rightly and only once, or left unnamed", () => {
  const unnamed: string[] = [];
  for (const line of referenceLines()) {
    const answers = drive(line);
    const name = line.configuration.official_name;
    if (answers.length === 0) {
      unnamed.push(line.configuration.official_id);
      continue;
    }
    assert.equal(answers.length, 1, `${name}: ${JSON.stringify(answers)}`);
    assert.equal(answers[0].ids, own(line), name);
    assert.ok(answers[0].at_m >= LIVE_MIN_M && answers[0].at_m < line.length_m, name);
  }
  // The Tourist layout's road is all Nordschleife: only the whole lap can tell them apart.
  assert.deepEqual(unnamed, ["8dd16b"]);
});

Deno.test("live, every line driven backwards names its reverse layout or nothing", () => {
  let named = 0;
  for (const line of referenceLines()) {
    const answers = drive(line, { reverse: true });
    const expected = line.reverse === null ? [] : [line.reverse.official_id];
    assert.deepEqual(answers.map((a) => a.ids), expected, line.configuration.official_name);
    named += answers.length;
  }
  assert.equal(named, 36);
});

Deno.test("live, the first 40 % of a line names nothing until only its own layout is left", () => {
  const unnamed: string[] = [];
  for (const line of referenceLines()) {
    const answers = drive(line, { fraction: 0.4 });
    assert.ok(answers.length <= 1);
    if (answers.length === 0) unnamed.push(line.configuration.official_name);
    else assert.equal(answers[0].ids, own(line), line.configuration.official_name);
  }
  // Layouts that share their first 40 % with another stay unnamed, and so does a lap too short
  // to have driven 400 m (Northern Isle).
  assert.deepEqual(unnamed, [
    "Autodrome Lago Maggiore - Centre",
    "Autodrome Lago Maggiore - East",
    "Autodrome Lago Maggiore - Full Course",
    "Autodrome Lago Maggiore - West End",
    "Autopolis International Racing Course",
    "Autopolis International Racing Course - Short Course",
    "Brands Hatch Indy Circuit",
    "Circuit de Barcelona-Catalunya GP Layout",
    "Circuit de Barcelona-Catalunya GP Layout No Chicane",
    "Fuji International Speedway",
    "Fuji International Speedway (Short)",
    "Kyoto Driving Park - Miyabi",
    "Kyoto Driving Park - Yamagiwa",
    "Northern Isle Speedway",
    "Nürburgring Nordschleife",
    "Nürburgring Nordschleife Tourist",
    "Nürburgring Sprint",
    "Sardegna - Road Track - C",
    "Suzuka Circuit East Course",
    "Tokyo Expressway - Central Clockwise",
    "Watkins Glen Short Course",
    "Watkins Glen Long Course",
  ]);
});

Deno.test("nested layouts stay unnamed live until the lap turns off the other's road", () => {
  const east = drive(referenceLineOf("4414cb")!);
  const full = drive(referenceLineOf("6e378b")!);
  assert.deepEqual(east.map((a) => a.ids), ["4414cb"]);
  assert.deepEqual(full.map((a) => a.ids), ["6e378b"]);
  // Each is named only once the East Course's short cut has been taken or passed by.
  assert.ok(east[0].at_m > 1500 && full[0].at_m > 1500, JSON.stringify([east, full]));
});

Deno.test("candidates explain themselves; reset starts over; an off-line start names nothing", () => {
  const line = referenceLineOf("f18da2")!;
  const lap = replayLine(line);
  matcher.reset();
  assert.equal(matcher.standing, 168);
  // The first position is looked at, the next ones (under 4 m away) are skipped.
  assert.equal(matcher.push(lap.pos_x[0], lap.pos_z[0]), null);
  assert.equal(matcher.push(lap.pos_x[1], lap.pos_z[1]), null);
  assert.equal(matcher.driven_m, 0);
  for (let i = 2; i < lap.pos_x.length; i++) matcher.push(lap.pos_x[i], lap.pos_z[i]);
  assert.equal(matcher.match?.name, "Tsukuba Circuit");
  assert.equal(matcher.standing, 1);
  const candidates = matcher.candidates();
  assert.equal(candidates.length, 168);
  assert.deepEqual(candidates[0], {
    official_id: "f18da2",
    official_name: "Tsukuba Circuit",
    direction: "forward",
    eliminated: null,
  });
  const backwards = candidates.find((c) =>
    c.official_id === "f18da2" && c.direction === "reverse"
  )!;
  assert.equal(backwards.eliminated?.why, "wrong way");
  assert.ok(backwards.eliminated!.at_m <= 40, `${backwards.eliminated!.at_m}`);
  const suzuka = candidates.find((c) => c.official_id === "6e378b")!;
  assert.equal(suzuka.eliminated?.why, "off the line");
  matcher.reset();
  assert.deepEqual([matcher.match, matcher.standing, matcher.driven_m], [null, 168, 0]);
  // 300 m of pit lane off every line first: every candidate falls, so nothing is named.
  for (let k = 0; k <= 300; k += 2) matcher.push(5000 + k, 5000);
  for (let i = 0; i < lap.pos_x.length; i++) matcher.push(lap.pos_x[i], lap.pos_z[i]);
  assert.deepEqual([matcher.match, matcher.standing], [null, 0]);
});
