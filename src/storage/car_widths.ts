/**
 * Axle track widths measured per car, remembered between surveys
 * (REFERENCE.md 2.2 "car memory"): a measurement replaces the stored one
 * only when it rests on more samples.
 *
 * @module
 */
import { betterMemory, type RememberedWidth } from "../core/survey/track_width.ts";
import { withLockRetry } from "./blob.ts";
import { getValid } from "./valid_record.ts";

const PREFIX = "car_width";

/** The key of `carId`'s remembered width. */
export const carWidthKey = (carId: number): Deno.KvKey => [PREFIX, carId];

function valid(value: unknown): value is RememberedWidth {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.tw_m === "number" && Number.isFinite(v.tw_m) && v.tw_m > 0 &&
    typeof v.samples === "number" && Number.isInteger(v.samples) && v.samples >= 0 &&
    (v.source === "cornering" || v.source === "edge_ride");
}

/** The width remembered for `carId`, or null (also for an unreadable record). */
export function getCarWidth(kv: Deno.Kv, carId: number): Promise<RememberedWidth | null> {
  return getValid(kv, carWidthKey(carId), valid);
}

/**
 * Remembers `measured` for `carId` unless the stored measurement has at
 * least as many samples. Returns what is remembered afterwards. Concurrent
 * calls settle on the measurement with the most samples.
 */
export async function rememberCarWidth(
  kv: Deno.Kv,
  carId: number,
  measured: RememberedWidth,
): Promise<RememberedWidth> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const entry = await kv.get(carWidthKey(carId));
    const prior = valid(entry.value) ? entry.value : null;
    const keep = betterMemory(prior, measured)!;
    if (keep === prior) return prior;
    const record: RememberedWidth = {
      tw_m: keep.tw_m,
      samples: keep.samples,
      source: keep.source,
    };
    const res = await withLockRetry(() =>
      kv.atomic().check(entry).set(carWidthKey(carId), record).commit()
    );
    if (res.ok) return record;
  }
  throw new Error(`could not remember the track width of car ${carId}`);
}
