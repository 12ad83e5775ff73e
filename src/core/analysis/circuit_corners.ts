/**
 * The corner map of a known configuration, made from its reference line:
 * the line the project ships for it, the line of a twin that drives the
 * same road, or, for a reverse configuration, its forward layout's line
 * driven backwards. The turn count is the catalogue's. Pure and
 * deterministic, so each map is made once per process and shared.
 *
 * @module
 */
import { slugify } from "../bundle/slug.ts";
import { type ReferenceLine, referenceLines } from "../catalog/reference_lines.ts";
import { CONFIGURATIONS, type OfficialConfiguration } from "../catalog/tracks.ts";
import { type CornerMap, cornerMapOfPath } from "./corner_map.ts";

/** Where a reference corner map's path comes from. */
export interface ReferenceSource {
  line: ReferenceLine;
  /** True when the line is driven backwards (a reverse configuration). */
  reversed: boolean;
}

/**
 * The line a configuration is driven on: its own, a twin's, or its forward
 * layout's backwards; null when the project ships none of them.
 */
export function referenceSourceOf(c: OfficialConfiguration): ReferenceSource | null {
  const lines = referenceLines();
  // Its own line first: twins drive one road, but may start from different lines (Spa's 24h grid).
  const own = lines.find((l) => l.configuration === c);
  if (own) return { line: own, reversed: false };
  for (const line of lines) {
    if (!c.reverse && line.twins.includes(c)) return { line, reversed: false };
    if (c.reverse && line.reverse === c) return { line, reversed: true };
  }
  return null;
}

/**
 * The configurations a circuit named `name` may be: the catalogue's
 * configuration whose official name has the same slug; else, for a name
 * given by circuit (as twins are named, "Circuit de Spa-Francorchamps", or
 * as a driver names a venue with one layout, "Broad Bean Raceway"), the
 * circuit's forward configuration and its reverse, when all its forward
 * configurations drive one line. Empty when the name says neither.
 */
export function configurationsNamed(name: string): OfficialConfiguration[] {
  const slug = slugify(name);
  const exact = CONFIGURATIONS.filter((c) => slugify(c.official_name) === slug);
  if (exact.length === 1) return exact;
  const byTrack = CONFIGURATIONS.filter((c) => !c.reverse && slugify(c.track) === slug);
  if (byTrack.length === 0) return [];
  const source = referenceSourceOf(byTrack[0]);
  if (source === null || byTrack.some((c) => referenceSourceOf(c)?.line !== source.line)) return [];
  return source.line.reverse ? [byTrack[0], source.line.reverse] : [byTrack[0]];
}

const maps = new Map<string, CornerMap | null>();

/**
 * The corner map of configuration `c` from its reference line, with the
 * catalogue's turn count; null when the project ships no line it is driven
 * on. Made once per configuration and then shared (callers must not change
 * it).
 */
export function referenceCornerMap(c: OfficialConfiguration): CornerMap | null {
  const known = maps.get(c.official_id);
  if (known !== undefined) return known;
  const source = referenceSourceOf(c);
  let map: CornerMap | null = null;
  if (source !== null) {
    const { line, reversed } = source;
    const x = reversed ? Array.from(line.x).reverse() : line.x;
    const z = reversed ? Array.from(line.z).reverse() : line.z;
    map = cornerMapOfPath(x, z, line.loop, c.turns);
  }
  maps.set(c.official_id, map);
  return map;
}
