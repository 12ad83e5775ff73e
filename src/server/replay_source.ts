/**
 * What `replay` streams: a capture file (gzip of decrypted packets, or raw
 * encrypted packets, told apart by content) or the built-in synthetic drive.
 *
 * @module
 */
import { gunzipSync } from "node:zlib";
import { isGzip, parseCapture } from "../core/gt7/capture.ts";
import type { PacketFormat } from "../core/gt7/format.ts";
import { encodeFrame } from "../core/gt7/encode.ts";
import { syntheticFrames } from "../core/synthetic/drive.ts";
import type { DriveMode } from "../core/synthetic/driver.ts";

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
      packets: () => mapIterable(syntheticFrames({ seed, laps, mode }), (f) => encodeFrame(f)),
    };
  }
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(spec);
  } catch (err) {
    throw new Error(`cannot read capture ${spec}: ${(err as Error).message}`);
  }
  if (isGzip(bytes)) {
    try {
      bytes = new Uint8Array(gunzipSync(bytes));
    } catch (err) {
      throw new Error(`capture ${spec} is not valid gzip: ${(err as Error).message}`);
    }
  }
  let capture;
  try {
    capture = parseCapture(bytes);
  } catch (err) {
    throw new Error(`${spec}: ${(err as Error).message}`);
  }
  const kind = capture.encrypted ? "encrypted" : "decrypted";
  return {
    description: `${spec} (${capture.packets.length} ${kind} packets, format ${capture.format})`,
    format: capture.format,
    packets: () => capture.packets,
  };
}

function* mapIterable<T, U>(it: Iterable<T>, fn: (v: T) => U): Generator<U> {
  for (const v of it) yield fn(v);
}
