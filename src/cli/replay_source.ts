/**
 * What `replay` streams: a capture file (gzip of decrypted packets, or raw
 * encrypted packets), a record file written by `--record` (plain or gzip; its
 * valid packets, in order), told apart by content, or the built-in synthetic
 * drive.
 *
 * @module
 */
import {
  captureFileOf,
  EXPECTED_FILES,
  type FileContent,
  fileContent,
  gunzipIfCompressed,
  packetOf,
} from "../core/gt7/capture_file.ts";
import { formatOfSize, type PacketFormat } from "../core/gt7/format.ts";
import { encodeFrame } from "../core/gt7/encode.ts";
import { syntheticFrames } from "../core/synthetic/drive.ts";
import type { DriveMode } from "../core/synthetic/driver.ts";
import type { Mistake } from "../core/synthetic/mistakes.ts";

/** A replayable stream of plaintext packets. */
export interface ReplaySource {
  /** What is being replayed, for messages. */
  description: string;
  format: PacketFormat;
  /** A fresh iteration of the plaintext packets. */
  packets: () => Iterable<Uint8Array>;
}

/** Options of the synthetic drive. */
export interface SyntheticOptions {
  laps?: number;
  /** Every lap at the same grip (see DriveOptions.steady). */
  steady?: boolean;
  /** Mistakes the driver makes (see src/core/synthetic/mistakes.ts). */
  mistakes?: readonly Mistake[];
  /** Lap 1 clean, then a mistake every lap (see src/core/synthetic/mistake_plan.ts). */
  mistakeEveryLap?: boolean;
}

const SYNTHETIC = /^synthetic:(-?\d+)(?::(race|survey))?$/;

/**
 * Resolves `spec`: `synthetic:SEED` or `synthetic:SEED:survey` for the
 * built-in drive, otherwise a capture file's path. Throws an Error naming the
 * problem for an unreadable or unrecognisable file.
 */
export async function openReplaySource(
  spec: string,
  opts: SyntheticOptions = {},
): Promise<ReplaySource> {
  const synthetic = SYNTHETIC.exec(spec);
  if (synthetic) {
    const seed = Number(synthetic[1]);
    const mode = (synthetic[2] ?? "race") as DriveMode;
    const laps = opts.laps ?? (mode === "survey" ? 2 : 3);
    return {
      description: `synthetic drive (seed ${seed}, ${mode}, ${laps} laps)`,
      format: "C",
      packets: () =>
        mapIterable(
          syntheticFrames({
            seed,
            laps,
            mode,
            steady: opts.steady,
            mistakes: opts.mistakes,
            mistakeEveryLap: opts.mistakeEveryLap,
          }),
          (f) => encodeFrame(f),
        ),
    };
  }
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(spec);
  } catch (err) {
    throw new Error(`cannot read capture ${spec}: ${(err as Error).message}`);
  }
  let file;
  let content: FileContent | null = null;
  try {
    const unzipped = gunzipIfCompressed(bytes);
    content = fileContent(unzipped.bytes);
    file = captureFileOf(unzipped);
  } catch (err) {
    const expected = content === "record" ? "" : `; expected ${EXPECTED_FILES}`;
    throw new Error(`${spec}: ${(err as Error).message}${expected}`);
  }
  // The packets the live client would keep, decrypted; the replay encrypts them afresh.
  const packets: Uint8Array[] = [];
  for (const datagram of file.datagrams) {
    const packet = packetOf(datagram, file.encrypted);
    if (typeof packet !== "string") packets.push(packet);
  }
  const format = file.format ?? (packets.length ? formatOfSize(packets[0].length) : null);
  if (format === null) {
    throw new Error(
      `${spec}: record file holds ${file.datagrams.length} datagrams and no valid packet`,
    );
  }
  const rejected = file.datagrams.length - packets.length;
  const what = file.kind === "record"
    ? `record file, ${packets.length} valid packets of ${file.datagrams.length} datagrams`
    : `${packets.length} ${file.encrypted ? "encrypted" : "decrypted"} packets` +
      (rejected ? ` (${rejected} invalid left out)` : "");
  return {
    description: `${spec} (${what}, format ${format})`,
    format,
    packets: () => packets,
  };
}

function* mapIterable<T, U>(it: Iterable<T>, fn: (v: T) => U): Generator<U> {
  for (const v of it) yield fn(v);
}
