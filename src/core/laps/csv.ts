/**
 * Lap export as a MoTeC CSV file, the layout MoTeC i2 writes and reads: a
 * block of quoted key/value header rows, two blank lines, the channel-name
 * and unit rows, two blank lines, then one row per tick. Lines end in CRLF.
 * Spreadsheets open it too, so text cells are guarded against formula
 * injection and numbers never use exponent notation.
 *
 * @module
 */
import type { LapSamples, SampleColumn } from "./columns.ts";
import type { LapSummary } from "./lap.ts";
import { coverageNote, type LapCoverage } from "./coverage.ts";

/** One exported channel: the sample column it comes from, its name and unit. */
export interface CsvChannel {
  column: SampleColumn;
  name: string;
  unit: string;
}

/** The 27 exported channels, in SPEC.md 4.7's order and units. */
export const CSV_CHANNELS: readonly CsvChannel[] = [
  { column: "t", name: "Time", unit: "s" },
  { column: "dist", name: "Distance", unit: "m" },
  { column: "speed", name: "Ground Speed", unit: "km/h" },
  { column: "throttle", name: "Throttle Pos", unit: "%" },
  { column: "brake", name: "Brake Pos", unit: "%" },
  { column: "gear", name: "Gear", unit: "" },
  { column: "rpm", name: "Engine RPM", unit: "rpm" },
  { column: "boost", name: "Boost Pressure", unit: "bar" },
  { column: "tire_slip", name: "Tyre Slip Ratio", unit: "" },
  { column: "yaw_rate", name: "Yaw Rate", unit: "rad/s" },
  { column: "pos_x", name: "Pos X", unit: "m" },
  { column: "pos_z", name: "Pos Z", unit: "m" },
  { column: "body_height", name: "Ride Height", unit: "mm" },
  { column: "fuel", name: "Fuel Level", unit: "L" },
  { column: "slip_fl", name: "Tyre Slip FL", unit: "" },
  { column: "slip_fr", name: "Tyre Slip FR", unit: "" },
  { column: "slip_rl", name: "Tyre Slip RL", unit: "" },
  { column: "slip_rr", name: "Tyre Slip RR", unit: "" },
  { column: "tt_fl", name: "Tyre Temp FL", unit: "C" },
  { column: "tt_fr", name: "Tyre Temp FR", unit: "C" },
  { column: "tt_rl", name: "Tyre Temp RL", unit: "C" },
  { column: "tt_rr", name: "Tyre Temp RR", unit: "C" },
  { column: "sus_fl", name: "Susp Travel FL", unit: "mm" },
  { column: "sus_fr", name: "Susp Travel FR", unit: "mm" },
  { column: "sus_rl", name: "Susp Travel RL", unit: "mm" },
  { column: "sus_rr", name: "Susp Travel RR", unit: "mm" },
  { column: "aids", name: "Driver Aids", unit: "bitmask" },
];

/** What the CSV needs beyond the lap: names the lap record does not hold. */
export interface CsvOptions {
  /** The car's name, from the car table (or "Car <id>"). */
  carName: string;
  /** The session's track name; "" when unknown. */
  venue: string;
}

/** The lap fields and samples the CSV is written from. */
export type CsvLap =
  & Pick<LapSummary, "number" | "time_ms" | "finished_at">
  & Pick<LapCoverage, "complete" | "samples_expected" | "samples_missing" | "longest_gap_packets">
  & { samples: LapSamples };

const CRLF = "\r\n";

/**
 * Yields the CSV of a lap one line at a time, each ending in CRLF, so that a
 * caller can stream it with memory independent of the lap's length.
 *
 * Header rows, in order: Format, Device, Vehicle, Comment (`Lap <n> -
 * M:SS.mmm`, followed for an incomplete lap by {@linkcode coverageNote}'s
 * words, such as `Lap 3 - 1:39.036 - incomplete: 120 of 5942 samples
 * missing, longest gap 120 packets`), Log Date (`yyyy-mm-dd`), Sample Rate
 * (`60.000`, `Hz`), then
 * MoTeC i2's Log Time (`h:mm:ss AM`), Duration (seconds, 3 dp, `s`) and
 * Venue. Log Date and Log Time are the lap's start in UTC (finished_at less
 * the lap time), which is when i2 expects the first sample; a finished_at
 * that is not an ISO 8601 time is written verbatim as the Log Date and Log
 * Time is left empty.
 *
 * Every row after the header has exactly 27 cells, one per
 * {@linkcode CSV_CHANNELS} entry; a column missing from the lap (or not one
 * value per tick) is written as empty cells. There is one data row per tick.
 */
export function* lapCsvLines(lap: CsvLap, opts: CsvOptions): Generator<string> {
  const start = lapStart(lap.finished_at, lap.time_ms);
  const header: [string, string, string?][] = [
    ["Format", "MoTeC CSV File"],
    ["Device", "sim-datalogger"],
    ["Vehicle", opts.carName],
    ["Comment", `Lap ${lap.number} - ${lapTimeText(lap.time_ms)}${commentSuffix(lap)}`],
    ["Log Date", start ? isoDate(start) : lap.finished_at],
    ["Sample Rate", "60.000", "Hz"],
    ["Log Time", start ? clockTime(start) : ""],
    ["Duration", millisText(lap.time_ms), "s"],
    ["Venue", opts.venue],
  ];
  for (const [key, value, unit] of header) {
    const cells = [textCell(key), textCell(value)];
    if (unit !== undefined) cells.push(textCell(unit));
    yield cells.join(",") + CRLF;
  }
  yield CRLF;
  yield CRLF;
  yield CSV_CHANNELS.map((c) => textCell(c.name)).join(",") + CRLF;
  yield CSV_CHANNELS.map((c) => textCell(c.unit)).join(",") + CRLF;
  yield CRLF;
  yield CRLF;

  const n = lap.samples.t.length;
  const columns = CSV_CHANNELS.map((c) => {
    const values = lap.samples[c.column];
    return values !== undefined && values.length === n ? values : undefined;
  });
  // A million cells for a long lap: formatting each double (String(v)) was
  // most of the export's time, and integers are cheap. A sample the
  // recorder rounded to at most 4 places is written from m = round(v * 10^4)
  // when m / 10^4 divides back to exactly v: v is then the double nearest the
  // decimal m / 10^4, and as that decimal has at most 15 significant digits
  // no shorter one reads back as v (two decimals of 15 digits or fewer never
  // share a double), so its digits are the shortest, the ones String(v)
  // writes. Anything else goes through plainNumber. The cell's fraction,
  // closing quote and separator come as one precomputed string.
  const last = columns.length - 1;
  const inRow = cellEnds('",');
  const atEnd = cellEnds('"' + CRLF);
  for (let i = 0; i < n; i++) {
    let row = "";
    for (let c = 0; c <= last; c++) {
      const values = columns[c];
      const ends = c < last ? inRow : atEnd;
      if (values === undefined) {
        row += ends[SCALE];
        continue;
      }
      const value = values[i];
      const m = Math.round(value * SCALE);
      if (m < EXACT_DIGITS && m > -EXACT_DIGITS && m / SCALE === value) {
        const abs = m < 0 ? -m : m;
        const whole = Math.floor(abs / SCALE);
        row += (m < 0 ? '"-' : '"') + whole + ends[abs - whole * SCALE];
      } else {
        row += '"' + plainNumber(value) + ends[0];
      }
    }
    yield row;
  }
}

/** Decimal places the fast path covers: the recorder rounds samples to at most 4. */
const SCALE = 1e4;
/** Below this, a scaled value has at most 15 significant digits. */
const EXACT_DIGITS = 1e15;
const ENDS = new Map<string, string[]>();

/**
 * `ends[f]` is the fraction f / 10^4 as written after a cell's integer part
 * ("" or ".ddd" without trailing zeros), then `tail`; `ends[10^4]` is `tail`
 * less the closing quote, for an empty cell. Built once, 10^4 short strings.
 */
function cellEnds(tail: string): string[] {
  let ends = ENDS.get(tail);
  if (ends === undefined) {
    ends = Array.from(
      { length: SCALE },
      (_, f) => (f === 0 ? "" : "." + String(SCALE + f).slice(1).replace(/0+$/, "")) + tail,
    );
    ends.push(tail.slice(1));
    ENDS.set(tail, ends);
  }
  return ends;
}

/**
 * What follows a lap's `Lap <n> - M:SS.mmm` in a comment: ` - ` and its
 * coverage note when it is incomplete, else nothing.
 */
export function commentSuffix(lap: CsvLap): string {
  const note = coverageNote(lap, lap.samples.t.length);
  return note ? ` - ${note}` : "";
}

/**
 * A quoted CSV text cell that a spreadsheet will not run as a formula: a
 * value starting with =, +, -, @, tab or CR gets a leading apostrophe, line
 * breaks become spaces (one header per line, as i2 reads them), and quotes
 * are doubled.
 */
export function textCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${guarded.replace(/\r\n|[\r\n]/g, " ").replaceAll('"', '""')}"`;
}

/**
 * A finite number in plain decimal: the shortest digits that read back as
 * the same double, never in exponent notation and without separators
 * (1e-7 -> "0.0000001", 1e21 -> "1000000000000000000000", -0 -> "0").
 * Non-finite values give "".
 */
export function plainNumber(value: number): string {
  if (!Number.isFinite(value)) return "";
  const text = String(value);
  const e = text.indexOf("e");
  if (e < 0) return text;
  const negative = text.startsWith("-");
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  // Position of the decimal point within `digits` once the exponent applies.
  const point = (dot < 0 ? mantissa.length : dot) + exponent;
  let plain: string;
  if (point <= 0) plain = "0." + "0".repeat(-point) + digits;
  else if (point >= digits.length) plain = digits + "0".repeat(point - digits.length);
  else plain = digits.slice(0, point) + "." + digits.slice(point);
  return (negative ? "-" : "") + plain;
}

/** `M:SS.mmm` of a lap time in ms (61500 -> "1:01.500"). */
export function lapTimeText(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  const minutes = Math.floor(whole / 60_000);
  const rest = whole - minutes * 60_000;
  return `${minutes}:${String(Math.floor(rest / 1000)).padStart(2, "0")}.${pad3(rest % 1000)}`;
}

function millisText(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  return `${Math.floor(whole / 1000)}.${pad3(whole % 1000)}`;
}

function pad3(n: number): string {
  return String(n).padStart(3, "0");
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function lapStart(finishedAt: string, timeMs: number): Date | undefined {
  if (!ISO_TIME.test(finishedAt)) return undefined;
  const end = Date.parse(finishedAt);
  if (Number.isNaN(end)) return undefined;
  const start = new Date(end - Math.max(0, timeMs));
  return Number.isNaN(start.getTime()) ? undefined : start;
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function clockTime(d: Date): string {
  const h = d.getUTCHours();
  const two = (n: number) => String(n).padStart(2, "0");
  return `${h % 12 === 0 ? 12 : h % 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ` +
    (h < 12 ? "AM" : "PM");
}
