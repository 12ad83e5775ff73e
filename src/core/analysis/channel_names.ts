/**
 * The channels a comparison may ask for: every sample channel but `t` and
 * `dist`, which the distance grid already says. Listed once, from the
 * sample columns (src/core/laps/columns.ts), as a zod enum
 * ({@linkcode channelNameSchema}): the engine's check and the
 * `GET /api/analysis/compare` query both use it, so the OpenAPI document
 * lists exactly the channels the engine takes.
 *
 * @module
 */
import { z } from "zod";
import { SAMPLE_COLUMNS, type SampleColumn } from "../laps/columns.ts";

/** A channel a comparison can draw. */
export type ChannelName = Exclude<SampleColumn, "t" | "dist">;

/** True when `c` is a channel a comparison can draw (neither `t` nor `dist`). */
function drawable(c: SampleColumn): c is ChannelName {
  return c !== "t" && c !== "dist";
}

/** Every {@linkcode ChannelName}, in the sample columns' canonical order. */
export const CHANNEL_NAMES = SAMPLE_COLUMNS.filter(drawable) as [ChannelName, ...ChannelName[]];

/** Why a name is refused, after the name itself in quotes. */
export const CHANNEL_RULE = "is not a sample channel (t and dist are implied by the grid)";

/** The words refusing channel name `name`: `"wings" is not a sample channel (...)`. */
export function channelRefusal(name: unknown): string {
  return `${JSON.stringify(String(name))} ${CHANNEL_RULE}`;
}

/** One channel name, one of {@linkcode CHANNEL_NAMES}; a fault's message is {@linkcode channelRefusal}'s. */
export const channelNameSchema = z.enum(CHANNEL_NAMES, {
  error: (issue) => channelRefusal(issue.input),
});

const NAMES = new Set<string>(CHANNEL_NAMES);

/** True when `name` is one of {@linkcode CHANNEL_NAMES}. */
export function isChannelName(name: string): name is ChannelName {
  return NAMES.has(name);
}
