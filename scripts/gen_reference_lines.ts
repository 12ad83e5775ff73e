/**
 * Regenerates src/core/catalog/reference_lines_data.ts, the project's own
 * reference lines, from the driving lines recorded in GT7 that sit beside the
 * checkout (../shared/reference/circuits/gt-telemetry-circuits.json.gz, MIT,
 * see NOTICE). Run it when that file or the catalogue changes:
 * `deno run -A scripts/gen_reference_lines.ts` (it formats its output with
 * `deno fmt`, so the same input always gives the same bytes).
 *
 * What it does, recording by recording:
 * 1. maps the recording's name to the catalogue's configuration (exact name
 *    after folding case, accents and punctuation, or an entry of
 *    {@linkcode ALIASES}); a name that maps nowhere, or to a configuration
 *    already taken, stops the script with an error naming the recording;
 * 2. keeps the ground positions (x, z) and splits the path where the
 *    recording jumps (points more than {@linkcode JUMP_M} apart);
 * 3. notices whether it closes: ends within {@linkcode CLOSE_M} are joined;
 *    a point-to-point layout ({@linkcode POINT_TO_POINT}) stays open; any
 *    other gap (the recording stopped short of the line) is filled, marked
 *    as inferred, with the stretch of another recording of the same circuit
 *    that runs from the one end to the other, or with a straight line when
 *    none does and the ends are at most {@linkcode MAX_STRAIGHT_FILL_M} apart;
 * 4. resamples every stretch at most {@linkcode STEP_M} apart, rounds to
 *    decimetres and stores zigzag varint deltas, base64 encoded;
 * 5. lists the line's twins: the configurations of the same circuit that the
 *    catalogue gives the same length and turn count and whose recordings
 *    (when there are any) drive the same road.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { CONFIGURATIONS, type OfficialConfiguration } from "../src/core/catalog/tracks.ts";

// --source and --out exist for tests of the generator; normally the defaults are right.
const args = parseArgs({
  options: { source: { type: "string" }, out: { type: "string" } },
  strict: true,
}).values;
const source = args.source ??
  fileURLToPath(
    new URL("../../shared/reference/circuits/gt-telemetry-circuits.json.gz", import.meta.url),
  );
const target = args.out ??
  fileURLToPath(new URL("../src/core/catalog/reference_lines_data.ts", import.meta.url));

/** Resampling step, metres. */
const STEP_M = 5;
/** Recorded points closer than this to the last one kept are dropped, metres. */
const MIN_STEP_M = 1;
/** Consecutive points further apart than this are a hole in the recording, metres. */
const JUMP_M = 15;
/** Ends closer than this are joined by a straight segment of recorded road, metres. */
const CLOSE_M = 25;
/** Largest gap bridged by a straight line when no other recording runs across it, metres. */
const MAX_STRAIGHT_FILL_M = 300;
/** A filling stretch must start and end this close to the gap's ends, metres. */
const FILL_SNAP_M = 8;
/** Twins: each line lies within this of the other... */
const TWIN_NEAR_M = 10;
/** ... over at least this share of its length. */
const TWIN_SHARE = 0.99;

/**
 * Recording names that differ from the catalogue's official name, by the
 * recording's name. Each maps to an official id of a forward configuration.
 */
const ALIASES: Readonly<Record<string, string>> = {
  // "Racing Circuit" in the catalogue, "race track" in the recordings.
  "24 Heures du Mans race track": "c272b2",
  "24 Heures du Mans race track, no chicane": "fbd5bc",
  // The recording misspells Gilles.
  "Circuit Giles-Villeneuve": "e86599",
  // British spelling in the catalogue.
  "Autodrome Lago Maggiore - Center": "46b3d9",
  // The recordings write Saint- for Sainte-.
  "Circuit de Saint-Croix - A": "954433",
  "Circuit de Saint-Croix - B": "c81c02",
  "Circuit de Saint-Croix - C": "041ba3",
  // The recording misspells Nordschleife.
  "Nürburgring Nordeschleife": "12ceac",
  // The 3.4 km layout without the Boot is GT7's Short Course.
  "Watkins Glen International": "59f32b",
};

/**
 * Layouts that are not loops: GT7's Tourist layout runs from the entry gate
 * to the gantry on the Döttinger Höhe, so its ends stay 2.2 km apart.
 */
const POINT_TO_POINT: ReadonlySet<string> = new Set(["8dd16b"]);

interface Recording {
  source_file: string;
  name: string;
  variation: string;
  length_m: number;
  path: number[][];
}

interface Point {
  x: number;
  z: number;
}

/** A stretch of the line: recorded road, or inferred across a hole. */
interface Stretch {
  points: Point[];
  inferred: boolean;
}

function fold(name: string): string {
  return name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, " ").trim();
}

function fail(message: string): never {
  console.error(`gen_reference_lines: ${message}`);
  Deno.exit(1);
}

function mapRecording(rec: Recording): OfficialConfiguration {
  const forward = CONFIGURATIONS.filter((c) => !c.reverse);
  const alias = ALIASES[rec.variation];
  const found = alias !== undefined
    ? forward.find((c) => c.official_id === alias)
    : forward.find((c) => fold(c.official_name) === fold(rec.variation));
  if (found === undefined) {
    fail(
      `recording "${rec.variation}" (${rec.source_file}) matches no configuration of the ` +
        `catalogue; add it to ALIASES with the official id it is`,
    );
  }
  return found;
}

function dist(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.z - a.z);
}

function lengthOf(points: readonly Point[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += dist(points[i - 1], points[i]);
  return total;
}

/** Nearest point of a polyline: distance, index of the segment start and fraction along it. */
function nearest(line: readonly Point[], p: Point): { d: number; i: number; t: number } {
  let best = { d: Infinity, i: 0, t: 0 };
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i];
    const b = line[i + 1];
    const dx = b.x - a.x;
    const dz = b.z - a.z;
    const l2 = dx * dx + dz * dz;
    const t = l2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.z - a.z) * dz) / l2));
    const d = Math.hypot(p.x - a.x - t * dx, p.z - a.z - t * dz);
    if (d < best.d) best = { d, i, t };
  }
  return best;
}

function lerp(a: Point, b: Point, t: number): Point {
  return { x: a.x + (b.x - a.x) * t, z: a.z + (b.z - a.z) * t };
}

/**
 * The stretch of `line` (a loop when `loop`) from the point nearest `from`
 * to the point nearest `to`, driving forward, or null when either end is
 * not on it or the way round is implausibly long for a gap of `chord`.
 */
function stretchAlong(
  line: readonly Point[],
  loop: boolean,
  from: Point,
  to: Point,
  chord: number,
): Point[] | null {
  const a = nearest(line, from);
  const b = nearest(line, to);
  if (a.d > FILL_SNAP_M || b.d > FILL_SNAP_M) return null;
  // The stretch starts and ends on the gap's own ends (at most FILL_SNAP_M from the other
  // line), so the filled line runs on without a jump.
  const out: Point[] = [from];
  const n = line.length;
  if (b.i > a.i || (b.i === a.i && b.t >= a.t)) {
    for (let i = a.i + 1; i <= b.i; i++) out.push(line[i]);
  } else {
    if (!loop) return null;
    // The loop's last point repeats its first, so step over the seam once.
    for (let i = a.i + 1; i < n; i++) out.push(line[i]);
    for (let i = 1; i <= b.i; i++) out.push(line[i]);
  }
  out.push(to);
  const length = lengthOf(out);
  if (length < chord * 0.9 || length > chord * 6 + 300) return null;
  return out;
}

/**
 * The points in driving order without the recorder's stutters: a point less
 * than {@linkcode MIN_STEP_M} from the last one kept, or one that turns back
 * on the way the line was going (a few recordings jitter backwards for a
 * metre or two), is dropped.
 */
function forwardOnly(points: readonly Point[]): Point[] {
  const kept: Point[] = [points[0]];
  for (let i = 1; i < points.length; i++) {
    const p = points[i];
    const last = kept[kept.length - 1];
    if (dist(last, p) < MIN_STEP_M) continue;
    if (kept.length >= 2) {
      const prev = kept[kept.length - 2];
      if ((last.x - prev.x) * (p.x - last.x) + (last.z - prev.z) * (p.z - last.z) < 0) continue;
    }
    kept.push(p);
  }
  return kept;
}

/** The recording's road as stretches, holes in it filled, and whether it closes. */
function buildStretches(
  rec: Recording,
  config: OfficialConfiguration,
  siblings: readonly { points: Point[]; loop: boolean; name: string }[],
  fills: string[],
): { stretches: Stretch[]; closure: "closed" | "filled" | "open"; gap: number } {
  const pts = forwardOnly(rec.path.map(([x, , z]) => ({ x, z })));
  const pieces: Point[][] = [[pts[0]]];
  for (let i = 1; i < pts.length; i++) {
    if (dist(pts[i - 1], pts[i]) > JUMP_M) pieces.push([]);
    pieces.at(-1)!.push(pts[i]);
  }
  const fill = (from: Point, to: Point, where: string): Stretch => {
    const chord = dist(from, to);
    let best: Point[] | null = null;
    let by = "a straight line";
    for (const s of siblings) {
      const along = stretchAlong(s.points, s.loop, from, to, chord);
      if (along !== null && (best === null || lengthOf(along) < lengthOf(best))) {
        best = along;
        by = s.name;
      }
    }
    fills.push(`${chord.toFixed(0)} m ${where} by ${by}`);
    if (best === null) {
      if (chord > MAX_STRAIGHT_FILL_M) {
        fail(
          `recording "${rec.variation}" has a ${chord.toFixed(0)} m hole ${where} that no other ` +
            `recording of ${config.track} runs across`,
        );
      }
      best = [from, to];
    }
    return { points: best, inferred: true };
  };
  const stretches: Stretch[] = [];
  for (let k = 0; k < pieces.length; k++) {
    if (k > 0) {
      stretches.push(fill(pieces[k - 1].at(-1)!, pieces[k][0], `after ${k} of its pieces`));
    }
    stretches.push({ points: pieces[k], inferred: false });
  }
  const first = pts[0];
  const last = pts[pts.length - 1];
  const gap = dist(first, last);
  if (POINT_TO_POINT.has(config.official_id)) {
    if (gap <= CLOSE_M) fail(`"${rec.variation}" is listed as point-to-point but closes`);
    return { stretches, closure: "open", gap };
  }
  if (gap <= CLOSE_M) {
    stretches.at(-1)!.points.push(first);
    return { stretches, closure: "closed", gap };
  }
  stretches.push(fill(last, first, "between its ends"));
  return { stretches, closure: "filled", gap };
}

/** Resamples each stretch at most STEP_M apart; returns points and the inferred segment flags. */
function resample(stretches: readonly Stretch[]): { points: Point[]; inferred: boolean[] } {
  const points: Point[] = [];
  const inferred: boolean[] = [];
  for (const stretch of stretches) {
    // Repeated points would make zero-length steps.
    const src = stretch.points.filter((p, i, all) => i === 0 || dist(all[i - 1], p) > 0.01);
    if (src.length < 2) continue;
    const total = lengthOf(src);
    if (total === 0) continue;
    const n = Math.max(1, Math.ceil(total / STEP_M));
    const step = total / n;
    if (points.length === 0) points.push(src[0]);
    let i = 0;
    let walked = 0;
    for (let k = 1; k <= n; k++) {
      const want = k === n ? total : k * step;
      while (i + 1 < src.length - 1 && walked + dist(src[i], src[i + 1]) < want) {
        walked += dist(src[i], src[i + 1]);
        i++;
      }
      const seg = dist(src[i], src[i + 1]);
      const t = seg === 0 ? 0 : Math.min(1, (want - walked) / seg);
      points.push(lerp(src[i], src[i + 1], t));
      inferred.push(stretch.inferred);
    }
  }
  return { points, inferred };
}

function zigzag(n: number): number {
  return n >= 0 ? 2 * n : -2 * n - 1;
}

function encode(points: readonly Point[]): string {
  const bytes: number[] = [];
  let px = 0;
  let pz = 0;
  for (const p of points) {
    const x = Math.round(p.x * 10);
    const z = Math.round(p.z * 10);
    for (let v of [zigzag(x - px), zigzag(z - pz)]) {
      while (v >= 0x80) {
        bytes.push((v % 0x80) | 0x80);
        v = Math.floor(v / 0x80);
      }
      bytes.push(v);
    }
    px = x;
    pz = z;
  }
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

/** Share of `a`'s segments whose midpoints lie within TWIN_NEAR_M of `b`. */
function shareNear(a: readonly Point[], b: readonly Point[]): number {
  let near = 0;
  let total = 0;
  for (let i = 0; i + 1 < a.length; i++) {
    const len = dist(a[i], a[i + 1]);
    total += len;
    if (nearest(b, lerp(a[i], a[i + 1], 0.5)).d <= TWIN_NEAR_M) near += len;
  }
  return total === 0 ? 0 : near / total;
}

const raw = JSON.parse(new TextDecoder().decode(gunzipSync(Deno.readFileSync(source)))) as {
  source: string;
  circuits: Recording[];
};
const recordings = raw.circuits.map((rec) => ({ rec, config: mapRecording(rec) }));
const taken = new Map<string, string>();
for (const { rec, config } of recordings) {
  const other = taken.get(config.official_id);
  if (other !== undefined) {
    fail(`recordings "${other}" and "${rec.variation}" both map to ${config.official_name}`);
  }
  taken.set(config.official_id, rec.variation);
}

// Siblings fill holes from the raw recordings (only those that close are loops).
const rawLines = recordings.map(({ rec, config }) => {
  const points = rec.path.map(([x, , z]) => ({ x, z }));
  const loop = dist(points[0], points.at(-1)!) <= CLOSE_M;
  return {
    track: config.track,
    id: config.official_id,
    name: config.official_name,
    points: loop ? [...points, points[0]] : points,
    loop,
  };
});

interface Built {
  rec: Recording;
  config: OfficialConfiguration;
  closure: "closed" | "filled" | "open";
  gap: number;
  points: Point[];
  inferred: boolean[];
  recorded: number;
  inferredM: number;
  fills: string[];
}

const built: Built[] = recordings.map(({ rec, config }) => {
  const siblings = rawLines.filter((l) => l.track === config.track && l.id !== config.official_id);
  const fills: string[] = [];
  const { stretches, closure, gap } = buildStretches(rec, config, siblings, fills);
  const { points, inferred } = resample(stretches);
  let recorded = 0;
  let inferredM = 0;
  for (let i = 0; i < inferred.length; i++) {
    const len = dist(points[i], points[i + 1]);
    if (inferred[i]) inferredM += len;
    else recorded += len;
  }
  const official = config.length_m;
  const share = (recorded + inferredM) / official;
  if (closure !== "open" && (share < 0.8 || share > 1.2)) {
    fail(
      `"${rec.variation}" measures ${(recorded + inferredM).toFixed(0)} m, official ${official} m`,
    );
  }
  return { rec, config, closure, gap, points, inferred, recorded, inferredM, fills };
});

// Twins: same circuit, same official length and turns; recorded ones must drive the same road.
const twinsOf = new Map<string, string[]>();
for (const b of built) {
  const twins: string[] = [];
  for (const c of CONFIGURATIONS) {
    if (
      c.official_id === b.config.official_id || c.reverse || c.track !== b.config.track ||
      c.length_m !== b.config.length_m || c.turns !== b.config.turns
    ) continue;
    const other = built.find((o) => o.config.official_id === c.official_id);
    if (
      other !== undefined &&
      (shareNear(b.points, other.points) < TWIN_SHARE ||
        shareNear(other.points, b.points) < TWIN_SHARE)
    ) continue;
    twins.push(c.official_id);
  }
  twinsOf.set(b.config.official_id, twins);
}

const rows: string[] = [];
let bytes = 0;
for (const b of built) {
  const ranges: number[] = [];
  for (let i = 0; i < b.inferred.length; i++) {
    if (b.inferred[i] && (i === 0 || !b.inferred[i - 1])) ranges.push(i);
    if (b.inferred[i] && (i + 1 === b.inferred.length || !b.inferred[i + 1])) ranges.push(i + 1);
  }
  const data = encode(b.points);
  bytes += data.length;
  rows.push(`  {
    official_id: ${JSON.stringify(b.config.official_id)},
    recording: ${JSON.stringify(b.rec.variation)},
    source_file: ${JSON.stringify(b.rec.source_file)},
    closure: ${JSON.stringify(b.closure)},
    gap_m: ${b.gap.toFixed(1)},
    recorded_m: ${Math.round(b.recorded)},
    inferred_m: ${Math.round(b.inferredM)},
    points: ${b.points.length},
    inferred: ${JSON.stringify(ranges)},
    twins: ${JSON.stringify(twinsOf.get(b.config.official_id))},
    data: "${data}",
  },`);
}

const text = `/**
 * GENERATED by scripts/gen_reference_lines.ts: do not edit. Regenerate with
 * \`deno run -A scripts/gen_reference_lines.ts\` (needs ../shared/reference
 * beside the checkout; users never need it, the data below is complete).
 *
 * Reference lines: one driving line per official GT7 configuration, made
 * from the lines recorded in GT7 by the gt-telemetry project (data/circuits,
 * MIT licence, copyright 2024 vwhitteron; see NOTICE and
 * docs/identification.md). Ground positions only (x, z), resampled at most
 * ${STEP_M} m apart, rounded to decimetres, stored as zigzag varint deltas of
 * decimetres in base64. Decoded by reference_lines.ts.
 *
 * @module
 */

/** One stored reference line. */
export interface ReferenceLineRow {
  /** The catalogue's forward configuration the recording is of. */
  readonly official_id: string;
  /** The recording's own name. */
  readonly recording: string;
  /** The recording's file in the source project. */
  readonly source_file: string;
  /** "closed": the recording closes; "filled": a hole was inferred; "open": point-to-point. */
  readonly closure: "closed" | "filled" | "open";
  /** Distance between the recording's first and last points, metres. */
  readonly gap_m: number;
  /** Metres of recorded road, and of road inferred across holes. */
  readonly recorded_m: number;
  readonly inferred_m: number;
  /** Number of points. */
  readonly points: number;
  /** Inferred stretches as [first, end) segment index pairs, flattened. */
  readonly inferred: readonly number[];
  /** Configurations that drive the same road (same length and turns in the catalogue). */
  readonly twins: readonly string[];
  /** The points, as described in the module comment. */
  readonly data: string;
}

/** Every reference line, in the source's order. */
export const REFERENCE_LINE_ROWS: readonly ReferenceLineRow[] = [
${rows.join("\n")}
];
`;
// Formatted with the project's own settings (wherever the output goes), then written once.
const root = fileURLToPath(new URL("..", import.meta.url));
const fmt = new Deno.Command(Deno.execPath(), {
  args: ["fmt", "--quiet", "--ext=ts", "--config", `${root}/deno.json`, "-"],
  stdin: "piped",
  stdout: "piped",
  stderr: "piped",
}).spawn();
const writer = fmt.stdin.getWriter();
await writer.write(new TextEncoder().encode(text));
await writer.close();
const formatted = await fmt.output();
if (!formatted.success) {
  fail(`deno fmt failed: ${new TextDecoder().decode(formatted.stderr)}`);
}
Deno.writeFileSync(target, formatted.stdout);
const summary = built.map((b) =>
  `${b.config.official_id} ${b.closure.padEnd(6)} gap ${b.gap.toFixed(0).padStart(5)} m, ` +
  `inferred ${b.inferredM.toFixed(0).padStart(4)} m  ${b.config.official_name}` +
  (twinsOf.get(b.config.official_id)!.length > 0
    ? `  twins ${twinsOf.get(b.config.official_id)}`
    : "") +
  b.fills.map((f) => `\n    filled ${f}`).join("")
);
console.log(summary.join("\n"));
console.log(`wrote ${built.length} reference lines (${bytes} bytes of base64) to ${target}`);
