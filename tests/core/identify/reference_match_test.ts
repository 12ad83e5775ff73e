/**
 * Whole-lap matching against the reference lines: every line, replayed at
 * 60 Hz at a racing speed, names its own configuration; backwards it names
 * the reverse layout or nothing; its first 40 % names nothing. Nested
 * layouts and look-alikes are told apart, and each verdict explains itself.
 */
import { strict as assert } from "node:assert";
import {
  decodeReferenceLine,
  type ReferenceLine,
  referenceLineOf,
  referenceLines,
} from "../../../src/core/catalog/reference_lines.ts";
import { REFERENCE_LINE_ROWS } from "../../../src/core/catalog/reference_lines_data.ts";
import {
  defaultReferenceIndex,
  ReferenceIndex,
} from "../../../src/core/identify/reference_index.ts";
import {
  matchReferenceLines,
  OFF_ALLOW_M,
  type ReferenceVerdict,
} from "../../../src/core/identify/reference_match.ts";
import { replayLine } from "../../../src/core/identify/reference_replay.ts";

/** The official ids a line names when driven forward: its own, plus its twins. */
function ownIds(line: ReferenceLine): string[] {
  return [line.configuration, ...line.twins].map((c) => c.official_id).sort();
}

function namedIds(v: ReferenceVerdict): string[] | null {
  return v.match === null ? null : v.match.configurations.map((c) => c.official_id);
}

function candidate(v: ReferenceVerdict, id: string) {
  return v.candidates.find((c) => c.official_id === id)!;
}

const lap = (id: string, opts = {}) => replayLine(referenceLineOf(id)!, opts);

Deno.test("every reference line replayed at 60 Hz names its own configuration (twins: the circuit)", () => {
  const byCircuit: string[] = [];
  for (const line of referenceLines()) {
    const replay = replayLine(line);
    const v = matchReferenceLines(replay);
    const name = line.configuration.official_name;
    assert.deepEqual(namedIds(v), ownIds(line), `${name}: ${v.reason}`);
    assert.equal(v.match!.direction, "forward");
    if (v.match!.configuration === null) {
      byCircuit.push(line.configuration.official_id);
      assert.equal(v.match!.name, line.configuration.track);
      assert.deepEqual(v.suggestions.map((c) => c.official_id), ownIds(line));
    } else {
      assert.equal(v.match!.name, name);
      assert.deepEqual(v.suggestions, []);
    }
    const own = candidate(v, line.configuration.official_id);
    assert.equal(own.fits, true);
    assert.equal(own.off_m, 0, name);
    assert.ok(own.missed_m <= 5, `${name}: missed ${own.missed_m}`);
    // Every other line that fits is a twin.
    const fitting = v.candidates.filter((c) => c.fits).map((c) => c.official_id).sort();
    assert.deepEqual(fitting, ownIds(line).filter((id) => referenceLineOf(id) !== null));
  }
  // Spa's Full Course and 24h Layout drive the same road; Endurance II has no line of its own.
  assert.deepEqual(byCircuit, ["3c4be1", "31acde", "d60ebc"]);
});

Deno.test("a line driven backwards names the reverse layout when GT7 has one, else nothing", () => {
  let reversed = 0;
  for (const line of referenceLines()) {
    const v = matchReferenceLines(replayLine(line, { reverse: true }));
    const name = line.configuration.official_name;
    if (line.reverse !== null) {
      reversed++;
      assert.equal(v.match?.configuration?.official_id, line.reverse.official_id, name);
      assert.equal(v.match!.name, `${name} (Reverse)`);
      assert.equal(v.match!.direction, "reverse");
    } else {
      assert.equal(v.match, null, `${name}: ${v.reason}`);
      assert.match(v.reason, /driven the other way round, which GT7 does not have/);
      assert.deepEqual(v.suggestions, []);
      const own = candidate(v, line.configuration.official_id);
      assert.deepEqual([own.fits, own.direction, own.names], [true, "reverse", null]);
      assert.match(own.reason, /GT7 has no reverse layout of/);
    }
  }
  assert.equal(reversed, 36);
});

Deno.test("the first 40 % of every line names nothing", () => {
  for (const line of referenceLines()) {
    const v = matchReferenceLines(replayLine(line, { fraction: 0.4 }));
    assert.equal(v.match, null, `${line.configuration.official_name}: ${v.reason}`);
    assert.deepEqual(v.suggestions, []);
    const own = candidate(v, line.configuration.official_id);
    assert.equal(own.fits, false);
    assert.equal(own.off_m, 0);
    assert.match(own.reason, /^the lap misses \d+ m of the line/);
  }
});

Deno.test("Lago Maggiore's six configurations share tarmac and are each told apart", () => {
  const ids = ["5ba087", "e829d7", "7828c0", "ab5c32", "cdd5eb", "46b3d9"];
  for (const id of ids) {
    const v = matchReferenceLines(lap(id));
    assert.deepEqual(namedIds(v), [id]);
    for (const other of ids.filter((o) => o !== id)) {
      const c = candidate(v, other);
      assert.equal(c.fits, false);
      assert.ok(c.misfit > 2, `${id} on ${other}: ${c.reason}`);
    }
  }
});

Deno.test("nested layouts: the short one misses the long one's road, the long one leaves the short", () => {
  // Red Bull Ring Short Track lies inside the full circuit.
  const short = matchReferenceLines(lap("c7e77c"));
  assert.equal(short.match?.name, "Red Bull Ring Short Track");
  const fullOnShort = candidate(short, "f3f7f9");
  assert.match(fullOnShort.reason, /^9\d m of the lap is off the line/);
  assert.ok(fullOnShort.missed_m > 2000, `${fullOnShort.missed_m}`);
  const full = matchReferenceLines(lap("f3f7f9"));
  assert.equal(full.match?.name, "Red Bull Ring");
  assert.match(candidate(full, "c7e77c").reason, /^20\d\d m of the lap is off the line/);
  // Suzuka East is never Suzuka, nor the other way round.
  const east = matchReferenceLines(lap("4414cb"));
  assert.equal(east.match?.name, "Suzuka Circuit East Course");
  assert.equal(candidate(east, "6e378b").fits, false);
  assert.equal(candidate(matchReferenceLines(lap("6e378b")), "4414cb").fits, false);
  // The Nordschleife holds the Tourist layout's road, but not the other way round.
  const tourist = matchReferenceLines(lap("8dd16b"));
  assert.equal(tourist.match?.name, "Nürburgring Nordschleife Tourist");
  assert.match(candidate(tourist, "12ceac").reason, /^the lap misses 2\d\d\d m of the line/);
});

Deno.test("look-alikes: Monza with and without its chicane, Tokyo Central both ways round", () => {
  const monza = matchReferenceLines(lap("e6817f"));
  const noChicane = matchReferenceLines(lap("f9e0f3"));
  assert.equal(monza.match?.name, "Autodromo Nazionale Monza");
  assert.equal(noChicane.match?.name, "Autodromo Nazionale Monza No Chicane");
  for (const [v, rival] of [[monza, "f9e0f3"], [noChicane, "e6817f"]] as const) {
    const c = candidate(v, rival);
    assert.equal(c.fits, false);
    assert.ok(c.off_m > 2 * OFF_ALLOW_M, `${rival}: ${c.off_m}`);
  }
  const cw = matchReferenceLines(lap("5aeb53"));
  const ccw = matchReferenceLines(lap("dcdc93"));
  assert.equal(cw.match?.name, "Tokyo Expressway - Central Clockwise");
  assert.equal(ccw.match?.name, "Tokyo Expressway - Central Counterclockwise");
  assert.equal(candidate(cw, "dcdc93").fits, false);
  // Driven backwards, the clockwise route is not taken for the counter-clockwise one.
  const backwards = matchReferenceLines(lap("5aeb53", { reverse: true }));
  assert.equal(backwards.match, null);
  assert.equal(candidate(backwards, "dcdc93").fits, false);
});

Deno.test("two lines that fit and name different configurations leave the lap unnamed", () => {
  const suzuka = REFERENCE_LINE_ROWS.find((r) => r.official_id === "6e378b")!;
  // The same road claimed by a second configuration: the matcher cannot choose.
  const index = new ReferenceIndex([
    decodeReferenceLine(suzuka),
    decodeReferenceLine({ ...suzuka, official_id: "f18da2" }),
  ]);
  const v = matchReferenceLines(lap("6e378b"), index);
  assert.equal(v.match, null);
  assert.deepEqual(v.suggestions.map((c) => c.official_name).sort(), [
    "Suzuka Circuit",
    "Tsukuba Circuit",
  ]);
  assert.equal(
    v.reason,
    "2 reference lines fit the lap and name different configurations: " +
      "Suzuka Circuit, Tsukuba Circuit",
  );
});

Deno.test("the verdict lists every line with its scores and why it was kept or dropped", () => {
  const v = matchReferenceLines(lap("f18da2"));
  assert.equal(v.candidates.length, 84);
  assert.equal(
    v.reason,
    "named Tsukuba Circuit: the only configuration whose reference line fits the lap",
  );
  const [first, second] = v.candidates;
  assert.deepEqual(
    {
      ...first,
      on_m: 0,
      covered_m: 0,
    },
    {
      official_id: "f18da2",
      official_name: "Tsukuba Circuit",
      near_m: 10,
      names: { name: "Tsukuba Circuit", official_ids: ["f18da2"] },
      on_m: 0,
      near_share: 1,
      off_m: 0,
      covered_m: 0,
      // The replay's last tick falls 4.9 m before the line closes.
      covered_share: 0.9976,
      missed_m: 4.9,
      direction: "forward",
      forward_share: 1,
      misfit: 0.0492,
      fits: true,
      close: true,
      reason: "fits, driven the way it was recorded",
    },
  );
  assert.ok(Math.abs(first.on_m - v.lap_m) < 1e-6);
  assert.equal(second.fits, false);
  // Ordered: those that fit, then by how far each is from fitting.
  for (let i = 2; i < v.candidates.length; i++) {
    assert.ok(v.candidates[i - 1].misfit <= v.candidates[i].misfit);
  }
  const far = v.candidates.at(-1)!;
  assert.equal(far.reason, "the lap never comes within 10 m of the line");
});

Deno.test("no usable position fits nothing; non-finite positions are skipped", () => {
  const empty = matchReferenceLines({ pos_x: [], pos_z: [] });
  assert.equal(empty.match, null);
  assert.equal(empty.lap_m, 0);
  assert.equal(empty.reason, "no reference line passes near the lap");
  const replay = lap("f18da2");
  const x = Array.from(replay.pos_x);
  const z = Array.from(replay.pos_z);
  for (let i = 0; i < x.length; i += 97) x[i] = Number.NaN;
  z[5] = Infinity;
  assert.equal(matchReferenceLines({ pos_x: x, pos_z: z }).match?.name, "Tsukuba Circuit");
  // Far away from every line: nothing passes near.
  const away = matchReferenceLines({ pos_x: [1e6, 1e6 + 50], pos_z: [1e6, 1e6] });
  assert.equal(away.reason, "no reference line passes near the lap");
});

Deno.test("a lap far from its line in one place is refused, with the metres off in the reason", () => {
  const replay = lap("f18da2");
  const x = Array.from(replay.pos_x);
  // Shift 200 m of the lap 30 m sideways: a detour the reference line never took.
  const from = Math.floor(x.length / 3);
  for (let i = from; i < from + 600; i++) x[i] += 30;
  const v = matchReferenceLines({ pos_x: x, pos_z: replay.pos_z });
  assert.equal(v.match, null);
  assert.match(candidate(v, "f18da2").reason, /^\d+ m of the lap is off the line \(at most 60 m/);
  assert.equal(
    v.reason.startsWith("no reference line fits the lap; closest: Tsukuba Circuit"),
    true,
  );
});

Deno.test("the default index is built once over all 84 lines", () => {
  const index = defaultReferenceIndex();
  assert.equal(defaultReferenceIndex(), index);
  assert.equal(index.lines.length, 84);
  assert.equal(index.points, 94_467);
});
