/**
 * The stored form of lap samples: columnar float64, so values come back bit
 * for bit. Layout: uint32 header length, a JSON header naming the columns and
 * the sample count, then each column's values in header order.
 *
 * @module
 */
import { isSampleColumn, type LapSamples, type SampleColumn } from "../core/laps/columns.ts";

interface Header {
  n: number;
  columns: SampleColumn[];
}

/** Encodes samples; the inverse of {@linkcode decodeSamples}. */
export function encodeSamples(samples: LapSamples): Uint8Array {
  const columns = (Object.keys(samples) as SampleColumn[]).filter((c) => samples[c] !== undefined);
  const n = samples.t.length;
  const header = new TextEncoder().encode(JSON.stringify({ n, columns } satisfies Header));
  const dataStart = Math.ceil((4 + header.byteLength) / 8) * 8;
  const out = new Uint8Array(dataStart + columns.length * n * 8);
  new DataView(out.buffer).setUint32(0, header.byteLength, true);
  out.set(header, 4);
  const values = new Float64Array(out.buffer, dataStart, columns.length * n);
  columns.forEach((name, i) => values.set(samples[name]!, i * n));
  return out;
}

/** Decodes bytes written by {@linkcode encodeSamples}; throws on a malformed buffer. */
export function decodeSamples(bytes: Uint8Array): LapSamples {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(0, true);
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)),
  ) as Header;
  const dataStart = Math.ceil((4 + headerLength) / 8) * 8;
  const { n, columns } = header;
  if (bytes.byteLength !== dataStart + columns.length * n * 8) {
    throw new Error("stored samples are truncated");
  }
  // Copy to an aligned buffer of its own: the input may sit at any offset, and a Node Buffer
  // (what postgres.js answers a bytea with) shares a pool whose `slice` is a view, not a copy.
  const values = new Float64Array(new Uint8Array(bytes.subarray(dataStart)).buffer);
  const out: Partial<Record<SampleColumn, number[]>> = {};
  columns.forEach((name, i) => {
    if (!isSampleColumn(name)) throw new Error(`stored samples name an unknown column ${name}`);
    out[name] = toArray(values, i * n, n);
  });
  return out as LapSamples;
}

/**
 * `n` values of `values` from `start` as a plain array. A counted loop into
 * an array of the final length: Array.from goes through the iterator and
 * took six times as long, which a comparison of five laps paid 33 times a lap.
 */
function toArray(values: Float64Array, start: number, n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = values[start + i];
  return out;
}
