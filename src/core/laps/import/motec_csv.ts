/**
 * MoTeC CSV, as our export and MoTeC i2 write it: a block of quoted
 * key/value header rows (i2 puts two pairs on a row), blank lines, the
 * channel-name and unit rows, blank lines, then one row per sample; CRLF or
 * LF. Channels are read by name and unit (motec_names.ts). Laps: our
 * export's one lap, timed by its `Comment` (`Lap 3 - 1:39.036`); a log with
 * `Beacon Markers` is cut at the beacons, the stretch before the first (an
 * out lap) and after the last (unfinished) skipped; anything else is one lap
 * of its `Duration`.
 *
 * @module
 */
import { ImportRejected } from "../../errors.ts";
import type { SampleColumn } from "../columns.ts";
import type { ForeignFile, ForeignLap, SkippedLap } from "./foreign_lap.ts";
import { motecColumn, motecLabel } from "./motec_names.ts";

/** True when `text` opens as a MoTeC CSV file: `"Format","MoTeC CSV File"`. */
export function isMotecCsv(text: string): boolean {
  const first = text.slice(0, 200).split(/\r?\n/, 1)[0].replace(/^\uFEFF/, "");
  const cells = csvCells(first);
  return cells[0] === "Format" && cells[1] === "MoTeC CSV File";
}

/**
 * The laps of MoTeC CSV `text`.
 *
 * @throws {ImportRejected} before anything is stored, naming the line
 * (`line 21`) and channel: no channel-name and unit rows, no `Time` channel
 * in s, a row with another number of cells than the names row, a cell that
 * is not a number, a channel with some cells empty, times that do not
 * increase, or no sample at all.
 */
export function readMotecCsv(text: string): ForeignFile {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = new Map<string, string>();
  let at = 0;
  for (; at < lines.length && lines[at].trim() !== ""; at++) {
    const cells = csvCells(lines[at]);
    for (let k = 0; k + 1 < cells.length; k += 4) {
      if (cells[k]) header.set(cells[k], unguarded(cells[k + 1]));
    }
  }
  while (at < lines.length && lines[at].trim() === "") at++;
  const nameLine = at;
  if (at + 1 >= lines.length) reject(`line ${at + 1}`, "no channel-name and unit rows");
  const names = csvCells(lines[at]);
  const units = csvCells(lines[at + 1]);
  at += 2;
  const timeIndex = names.findIndex((n, k) => n.trim() === "Time" && (units[k] ?? "") === "s");
  if (timeIndex < 0) reject(`line ${nameLine + 1}`, 'no "Time" channel in s');
  const columns = names.map((n, k) => motecColumn(n, units[k] ?? ""));
  const rows = readRows(lines, at, names);
  const time = rows[timeIndex] as number[];
  if (time.length === 0) reject(`line ${at + 1}`, "no samples");
  for (let i = 1; i < time.length; i++) {
    if (!(time[i] > time[i - 1])) reject(`sample ${i + 1}`, "Time must increase");
  }
  const channels: ForeignLap["channels"] = {};
  columns.forEach((c, k) => {
    const values = rows[k];
    if (c === null || values === null || channels[c.column] !== undefined) return;
    channels[c.column] = values.map((v) => (c.absolute ? Math.abs(v * c.factor) : v * c.factor));
  });
  return { ...cutLaps(header, time, channels), label: motecLabel };
}

/** Every data row from `from`, as one array per channel; null for a channel with no values. */
function readRows(lines: readonly string[], from: number, names: readonly string[]) {
  const rows: (number[] | null)[] = names.map(() => []);
  const empty = names.map(() => 0);
  let count = 0;
  for (let i = from; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const cells = csvCells(lines[i]);
    if (cells.length !== names.length) {
      reject(`line ${i + 1}`, `has ${cells.length} cells, the channel names ${names.length}`);
    }
    cells.forEach((cell, k) => {
      if (cell.trim() === "") {
        empty[k]++;
        return;
      }
      const v = Number(cell);
      if (!Number.isFinite(v)) reject(`line ${i + 1}, ${names[k]}`, `"${cell}" is not a number`);
      rows[k]!.push(v);
    });
    count++;
  }
  return rows.map((values, k) => {
    if (empty[k] === count) return null;
    if (empty[k] > 0) reject(names[k], `${empty[k]} of ${count} cells are empty`);
    return values;
  });
}

const COMMENT_LAP = /^Lap (\d+) - (\d+):(\d{2})\.(\d{3})/;

/** The laps of a log whose samples are at `time`, cut as the module says. */
function cutLaps(
  header: ReadonlyMap<string, string>,
  time: readonly number[],
  channels: ForeignLap["channels"],
): { laps: ForeignLap[]; skipped: SkippedLap[] } {
  const names = {
    car_name: header.get("Vehicle") ?? "",
    track_name: header.get("Venue") ?? "",
  };
  const beacons = (header.get("Beacon Markers") ?? "").trim().split(/\s+/).filter((b) => b !== "")
    .map(Number).filter((b) => Number.isFinite(b) && b > time[0] && b <= time[time.length - 1]);
  const comment = COMMENT_LAP.exec(header.get("Comment") ?? "");
  if (beacons.length === 0) {
    const duration = Number(header.get("Duration"));
    const timeMs = comment !== null
      ? (Number(comment[2]) * 60 + Number(comment[3])) * 1000 + Number(comment[4])
      : Math.round((duration > 0 ? duration : time[time.length - 1]) * 1000);
    const lap = { number: comment ? Number(comment[1]) : 1, time_ms: timeMs, ...names };
    return { laps: [{ ...lap, time: [...time], channels }], skipped: [] };
  }
  const edges = [time[0], ...beacons, Infinity];
  const laps: ForeignLap[] = [];
  const skipped: SkippedLap[] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    if (k === 0) skipped.push({ lap: 1, reason: "before the first beacon: an out lap" });
    else if (k === edges.length - 2) {
      skipped.push({ lap: k + 1, reason: "after the last beacon: the lap was not finished" });
    } else laps.push(segment(k + 1, edges[k], edges[k + 1], time, channels, names));
  }
  return { laps, skipped };
}

/** The samples of `time` in (start, end], as the lap `number`, its clock from `start`. */
function segment(
  number: number,
  start: number,
  end: number,
  time: readonly number[],
  channels: ForeignLap["channels"],
  names: { car_name: string; track_name: string },
): ForeignLap {
  const found = time.findIndex((t) => t > start);
  const first = found < 0 ? time.length : found;
  let last = first - 1;
  while (last + 1 < time.length && time[last + 1] <= end) last++;
  const part: ForeignLap["channels"] = {};
  for (const [c, values] of Object.entries(channels) as [SampleColumn, readonly number[]][]) {
    part[c] = values.slice(first, last + 1);
  }
  return {
    number,
    time_ms: Math.round((end - start) * 1000),
    time: time.slice(first, last + 1).map((t) => t - start),
    channels: part,
    ...names,
  };
}

/** The cells of one CSV line: quoted or bare, quotes doubled inside quotes. */
export function csvCells(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = "";
    if (line[i] === '"') {
      i++;
      for (; i < line.length; i++) {
        if (line[i] !== '"') cell += line[i];
        else if (line[i + 1] === '"') cell += '"', i++;
        else break;
      }
      i++;
    }
    while (i < line.length && line[i] !== ",") cell += line[i++];
    cells.push(cell);
    if (i >= line.length) return cells;
    i++;
  }
}

/** A header value as written before our export guarded it against formulas (csv.ts textCell). */
function unguarded(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

function reject(path: string, message: string): never {
  throw new ImportRejected({ path, message: `MoTeC CSV: ${message}` });
}
