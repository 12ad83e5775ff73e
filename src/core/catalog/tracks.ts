/**
 * The official GT7 circuits and layouts: one configuration per layout and
 * direction (a reverse layout is its own configuration, with its own id and
 * turn count). The rows are generated data (tracks_data.ts, written by
 * scripts/gen_tracks.ts); this module is the code that reads them.
 *
 * @module
 */
import { TRACK_ROWS } from "./tracks_data.ts";

/** One official configuration: a layout of a circuit, driven one way. */
export interface OfficialConfiguration {
  /** The circuit, such as "Suzuka Circuit". */
  readonly track: string;
  /** ISO 3166 alpha-3 country code. */
  readonly country: string;
  /** The layout, such as "East Course". */
  readonly layout: string;
  /** The game's id of this configuration. */
  readonly official_id: string;
  /** The game's name of this configuration; a reverse one ends in " (Reverse)". */
  readonly official_name: string;
  readonly turns: number;
  /** Official lap length, metres. */
  readonly length_m: number;
  readonly reverse: boolean;
}

/** Every configuration, in catalogue order (circuit, then layout, forward before reverse). */
export const CONFIGURATIONS: readonly OfficialConfiguration[] = Object.freeze(
  TRACK_ROWS.map(([track, country, layout, official_id, official_name, turns, length_m, reverse]) =>
    Object.freeze({ track, country, layout, official_id, official_name, turns, length_m, reverse })
  ),
);

/** Circuits, layouts and configurations (reverse ones included) in the catalogue. */
export const CATALOG_COUNTS = Object.freeze({
  tracks: new Set(CONFIGURATIONS.map((c) => c.track)).size,
  layouts: new Set(CONFIGURATIONS.map((c) => `${c.track}\u0000${c.layout}`)).size,
  configurations: CONFIGURATIONS.length,
});

const BY_ID: ReadonlyMap<string, OfficialConfiguration> = new Map(
  CONFIGURATIONS.map((c) => [c.official_id, c]),
);

/** The configuration with the game's id `id`, or null. */
export function configurationById(id: string): OfficialConfiguration | null {
  return BY_ID.get(id) ?? null;
}
