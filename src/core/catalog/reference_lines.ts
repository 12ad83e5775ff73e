/**
 * Reference lines: the driving line of each official configuration that has
 * one, decoded from the compact data that scripts/gen_reference_lines.ts
 * compiles into reference_lines_data.ts. Pure: the data is part of the
 * program, so every installation has it without any file of its own.
 *
 * The lines come from recordings made in GT7 by the gt-telemetry project
 * (MIT licence); see {@linkcode REFERENCE_LINES_CREDIT} and NOTICE.
 *
 * @module
 */
import { REFERENCE_LINE_ROWS, type ReferenceLineRow } from "./reference_lines_data.ts";
import { configurationById, CONFIGURATIONS, type OfficialConfiguration } from "./tracks.ts";

/** Where the reference lines come from, for credits and API answers. */
export const REFERENCE_LINES_CREDIT =
  "Driving lines recorded in GT7 by the gt-telemetry project (github.com/zetetos/gt-telemetry, " +
  "data/circuits), MIT licence, copyright (c) 2024 vwhitteron";

/** How a recording ends: closes on itself, had a hole inferred, or is point-to-point. */
export type Closure = "closed" | "filled" | "open";

/** One decoded reference line. Arrays are owned by the line and never change. */
export interface ReferenceLine {
  /** The forward configuration the line was recorded on. */
  readonly configuration: OfficialConfiguration;
  /** The catalogue's reverse configuration of the same layout, or null when GT7 has none. */
  readonly reverse: OfficialConfiguration | null;
  /** Configurations that drive the same road (same circuit, length and turns; never reverse ones). */
  readonly twins: readonly OfficialConfiguration[];
  readonly closure: Closure;
  /** True unless the layout is point-to-point: positions wrap from the last point to the first. */
  readonly loop: boolean;
  /** Distance between the recording's own ends, metres. */
  readonly gap_m: number;
  /** Metres of recorded road and of road inferred across holes in the recording. */
  readonly recorded_m: number;
  readonly inferred_m: number;
  /** The recording's name and file in the source project. */
  readonly recording: string;
  readonly source_file: string;
  /** Ground positions in driving order, world metres (x, z; y is height and is not kept). */
  readonly x: Float64Array;
  readonly z: Float64Array;
  /** Distance along the line at each point, metres; s[0] = 0. */
  readonly s: Float64Array;
  /** Length of the line, metres (the last s; a loop's last point is back at its first). */
  readonly length_m: number;
  /** Per segment (point i to i + 1): 1 where the road was inferred, not recorded. */
  readonly inferred: Uint8Array;
}

/**
 * Decodes one stored row. Throws an Error naming the line and the broken
 * rule when the row is inconsistent (wrong point count, unknown
 * configuration, bad inferred ranges), so a corrupt table never yields a
 * partial line.
 */
export function decodeReferenceLine(row: ReferenceLineRow): ReferenceLine {
  const where = `reference line ${row.official_id}`;
  const configuration = configurationById(row.official_id);
  if (configuration === null || configuration.reverse) {
    throw new Error(`${where}: official_id must name a forward configuration of the catalogue`);
  }
  const bytes = base64Bytes(row.data, where);
  const x = new Float64Array(row.points);
  const z = new Float64Array(row.points);
  // Zigzag varints, x then z per point, each a delta of decimetres from the point before.
  let at = 0;
  let qx = 0;
  let qz = 0;
  for (let k = 0; k < 2 * row.points; k++) {
    let value = 0;
    let scale = 1;
    let b = 0x80;
    while (b >= 0x80) {
      if (at >= bytes.length) throw new Error(`${where}: data ends inside a point`);
      b = bytes[at++];
      value += (b & 0x7f) * scale;
      scale *= 0x80;
    }
    const delta = value % 2 === 0 ? value / 2 : -(value + 1) / 2;
    if (k % 2 === 0) x[k >> 1] = (qx += delta) / 10;
    else z[k >> 1] = (qz += delta) / 10;
  }
  if (at !== bytes.length) throw new Error(`${where}: data holds more than ${row.points} points`);
  if (row.points < 2) throw new Error(`${where}: points must be at least 2`);
  const s = new Float64Array(row.points);
  for (let i = 1; i < row.points; i++) {
    s[i] = s[i - 1] + Math.hypot(x[i] - x[i - 1], z[i] - z[i - 1]);
  }
  const inferred = new Uint8Array(row.points - 1);
  if (row.inferred.length % 2 !== 0) throw new Error(`${where}: inferred must hold pairs`);
  for (let k = 0; k < row.inferred.length; k += 2) {
    const from = row.inferred[k];
    const to = row.inferred[k + 1];
    if (
      !(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from < to &&
        to <= inferred.length)
    ) {
      throw new Error(`${where}: inferred range [${from}, ${to}) must lie within its segments`);
    }
    inferred.fill(1, from, to);
  }
  const twins = row.twins.map((id) => {
    const twin = configurationById(id);
    if (twin === null || twin.reverse) {
      throw new Error(`${where}: twin ${id} is not a forward configuration`);
    }
    return twin;
  });
  return Object.freeze({
    configuration,
    reverse: reverseOf(configuration),
    twins: Object.freeze(twins),
    closure: row.closure,
    loop: row.closure !== "open",
    gap_m: row.gap_m,
    recorded_m: row.recorded_m,
    inferred_m: row.inferred_m,
    recording: row.recording,
    source_file: row.source_file,
    x,
    z,
    s,
    length_m: s[row.points - 1],
    inferred,
  });
}

/** The catalogue's reverse configuration of `c`'s layout, or null. */
export function reverseOf(c: OfficialConfiguration): OfficialConfiguration | null {
  return CONFIGURATIONS.find((o) => o.reverse && o.track === c.track && o.layout === c.layout) ??
    null;
}

/** A reference line as lists and APIs show it: what it names, where it came from, no points. */
export interface ReferenceLineInfo {
  official_id: string;
  official_name: string;
  track: string;
  layout: string;
  /** The reverse configuration a lap driven the other way round is named after, or null. */
  reverse_id: string | null;
  /** Configurations that drive the same road (named together, by the circuit). */
  twin_ids: string[];
  closure: Closure;
  /** Metres of the line, of it recorded, and of it inferred across holes. */
  length_m: number;
  recorded_m: number;
  inferred_m: number;
  /** Where the line comes from: the recording's name and file, and the credit. */
  provenance: { kind: "reference_line"; recording: string; source_file: string; credit: string };
}

/** The summary of `line` for lists (such as GET /api/tracks): plain JSON, no typed arrays. */
export function referenceLineInfo(line: ReferenceLine): ReferenceLineInfo {
  const c = line.configuration;
  return {
    official_id: c.official_id,
    official_name: c.official_name,
    track: c.track,
    layout: c.layout,
    reverse_id: line.reverse?.official_id ?? null,
    twin_ids: line.twins.map((t) => t.official_id),
    closure: line.closure,
    length_m: Math.round(line.length_m),
    recorded_m: line.recorded_m,
    inferred_m: line.inferred_m,
    provenance: {
      kind: "reference_line",
      recording: line.recording,
      source_file: line.source_file,
      credit: REFERENCE_LINES_CREDIT,
    },
  };
}

let decoded: readonly ReferenceLine[] | null = null;

/** Every reference line, decoded once and then shared (in the data's order). */
export function referenceLines(): readonly ReferenceLine[] {
  decoded ??= Object.freeze(REFERENCE_LINE_ROWS.map(decodeReferenceLine));
  return decoded;
}

/** The reference line recorded on the configuration `id`, or null when there is none. */
export function referenceLineOf(id: string): ReferenceLine | null {
  return referenceLines().find((l) => l.configuration.official_id === id) ?? null;
}

function base64Bytes(text: string, where: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new Error(`${where}: data must be base64`);
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
