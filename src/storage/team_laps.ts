/**
 * The team's best lap at a circuit in a car, as last fetched from the hub
 * (`--reference team`): kept in the store, keyed by circuit and car, so a
 * logger started offline still drives against it. The lap file is kept as
 * the hub sent it (a blob), and read back through the lap-file reader by
 * the caller; a head record names the blob, so a crash mid-write leaves
 * the previous lap in place.
 *
 * @module
 */
import { type BlobRef, deleteBlob, readBlob, withLockRetry, writeBlob } from "./blob.ts";
import { getValid } from "./valid_record.ts";

/** What is kept of a team lap besides its file. */
export interface TeamLapHead {
  /** The teammate who drove it, as the hub names them. */
  driver: string;
  /** True when the hub's token is that driver's own: the team's best is yours. */
  mine: boolean;
  /** The hub's id of the lap. */
  hub_lap_id: string;
  time_ms: number;
  /** When it was fetched, ISO 8601. */
  fetched_at: string;
}

interface StoredHead extends TeamLapHead {
  blob: BlobRef;
}

const headKey = (circuit: string, car: number): Deno.KvKey => ["team_lap", circuit, car];
const blobPrefix = (circuit: string, car: number, id: string): Deno.KvKey => [
  "team_lap_file",
  circuit,
  car,
  id,
];

function valid(v: unknown): v is StoredHead {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Record<string, unknown>;
  const blob = s.blob as Record<string, unknown> | null;
  return typeof s.driver === "string" && typeof s.mine === "boolean" &&
    typeof s.hub_lap_id === "string" &&
    typeof s.time_ms === "number" && typeof s.fetched_at === "string" &&
    typeof blob === "object" && blob !== null && Number.isInteger(blob.chunks) &&
    Number.isInteger(blob.bytes);
}

/**
 * The team lap kept for `circuit` and `car`: its head and the lap file's
 * bytes as the hub sent them; null when none is kept (or its record is of
 * other rules). Throws only when the store cannot be read.
 */
export async function getTeamLap(
  kv: Deno.Kv,
  circuit: string,
  car: number,
): Promise<{ head: TeamLapHead; file: Uint8Array } | null> {
  const stored = await getValid(kv, headKey(circuit, car), valid);
  if (stored === null) return null;
  const { blob, ...head } = stored;
  const file = await readBlob(kv, blobPrefix(circuit, car, head.hub_lap_id), blob);
  return { head, file };
}

/**
 * Keeps `file` (a lap file's bytes) as the team lap of `circuit` and `car`,
 * replacing the one kept before once the new one is whole.
 */
export async function putTeamLap(
  kv: Deno.Kv,
  circuit: string,
  car: number,
  head: TeamLapHead,
  file: Uint8Array,
): Promise<void> {
  const before = await getValid(kv, headKey(circuit, car), valid);
  const prefix = blobPrefix(circuit, car, head.hub_lap_id);
  // A blob of the same id left by an earlier write is replaced whole, never mixed.
  if (before?.hub_lap_id !== head.hub_lap_id) await deleteBlob(kv, prefix);
  const blob = await writeBlob(kv, prefix, file);
  await withLockRetry(() => kv.set(headKey(circuit, car), { ...head, blob }));
  if (before !== null && before.hub_lap_id !== head.hub_lap_id) {
    await deleteBlob(kv, blobPrefix(circuit, car, before.hub_lap_id));
  }
}
