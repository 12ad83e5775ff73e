/**
 * The pedal channels of a lap, which a lap imported from positions and
 * speed alone does not carry: such a channel is absent (never zeros
 * pretending to be data), and whatever is read from the pedals (braking
 * points, where the throttle came back) is unknown on that lap, never
 * guessed.
 *
 * @module
 */
import type { LapSamples } from "../laps/columns.ts";

/** A pedal channel. */
export type Pedal = "brake" | "throttle";

/** The pedal channels, in the order the notes say what they cannot know. */
export const PEDALS: readonly Pedal[] = ["brake", "throttle"];

/**
 * The lap's `pedal` channel, or null when the lap does not carry it: the
 * channel is absent, or does not hold one value a sample (a channel cut
 * short is no data about the rest of the lap).
 */
export function pedalOf(samples: LapSamples, pedal: Pedal): readonly number[] | null {
  const values = (samples as { [K in Pedal]?: number[] })[pedal];
  return Array.isArray(values) && values.length === samples.t.length ? values : null;
}

/** The pedals that `laps` do not all carry, in {@linkcode PEDALS} order. */
export function missingPedals(...laps: readonly LapSamples[]): Pedal[] {
  return PEDALS.filter((p) => laps.some((s) => pedalOf(s, p) === null));
}
