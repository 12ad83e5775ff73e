/**
 * Builds record files (as `--record` writes them) and encrypted captures for
 * the capture import and replay tests.
 *
 * @module
 */
import { encryptPacket } from "../src/core/gt7/cipher.ts";
import {
  encodeRecordHeader,
  RECORD_ENTRY_HEADER_BYTES,
  RECORD_HEADER_BYTES,
  writeRecordEntry,
} from "../src/core/gt7/record_file.ts";
import { garbageDatagrams } from "./_garbage.ts";

/** One record entry: arrival time (Unix ms) and the datagram. */
export type Entry = readonly [atMs: number, datagram: Uint8Array];

/**
 * A record file started at `startedAtMs` holding `entries`; with `cut`, the
 * last entry loses its final `cut` bytes, as a recorder killed mid-write
 * leaves it.
 */
export function buildRecordFile(
  startedAtMs: number,
  entries: readonly Entry[],
  cut = 0,
): Uint8Array {
  const size = entries.reduce((n, [, d]) => n + RECORD_ENTRY_HEADER_BYTES + d.length, 0);
  const out = new Uint8Array(RECORD_HEADER_BYTES + size);
  out.set(encodeRecordHeader(startedAtMs), 0);
  let offset = RECORD_HEADER_BYTES;
  for (const [at, d] of entries) offset += writeRecordEntry(out, offset, at, d);
  return out.subarray(0, out.length - cut);
}

/** A deterministic IV for packet `i`, as a console would vary it. */
export function ivOf(i: number): number {
  return Math.imul(i + 1, 2654435761) >>> 0;
}

/** Encrypted copies of plaintext packets, each with its own IV. */
export function encryptAll(packets: readonly Uint8Array[]): Uint8Array[] {
  return packets.map((p, i) => encryptPacket(p, ivOf(i)));
}

/** A stream of encrypted packets with garbage mixed in, and where each packet went. */
export interface MixedStream {
  /** Every entry in arrival order: packets, and one garbage datagram after every `every`-th. */
  entries: Entry[];
  /** Index in `entries` of each packet, in packet order. */
  packetAt: number[];
  /** The garbage datagrams, in the order mixed in. */
  garbage: Uint8Array[];
}

/**
 * `packets` encrypted and arriving every `periodMs` from `startMs` (integer
 * ms, so times compare exactly), with a garbage datagram from
 * `garbageDatagrams(seed, ...)` after every `every` packets, arriving at the
 * same time as the packet before it.
 */
export function mixWithGarbage(
  packets: readonly Uint8Array[],
  opts: { startMs: number; periodMs: number; every: number; seed: number },
): MixedStream {
  const encrypted = encryptAll(packets);
  const garbage = garbageDatagrams(opts.seed, Math.floor(packets.length / opts.every));
  const entries: Entry[] = [];
  const packetAt: number[] = [];
  encrypted.forEach((datagram, i) => {
    const at = opts.startMs + i * opts.periodMs;
    packetAt.push(entries.length);
    entries.push([at, datagram]);
    const g = (i + 1) / opts.every - 1;
    if (Number.isInteger(g) && g < garbage.length) entries.push([at, garbage[g]]);
  });
  return { entries, packetAt, garbage };
}
