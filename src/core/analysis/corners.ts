/**
 * Which corners a lap is analysed by: the circuit's authored corners
 * outrank its corner map, which outranks the corners detected from the
 * lap's own line (SPEC 2.1.5; docs/analysis.md).
 *
 * @module
 */
import type { Corner } from "../bundle/types.ts";
import { authoredCorners } from "./corners_authored.ts";
import { detectCorners, type DetectOptions } from "./corners_detect.ts";
import type { CornerMap } from "./corner_map.ts";
import type { LapTrace } from "./lap_trace.ts";
import type { LapCorners } from "./types.ts";

/** A lap's corners, and the definitions they were located from (null: the lap's own line). */
export interface LocatedCorners extends LapCorners {
  definitions: readonly Corner[] | null;
}

/**
 * The lap's corners: the authored ones (`source: "authored"`) when the
 * bundle has corners and the lap passed at least one of them; else the
 * circuit's corner map located on the lap (`source: "circuit"`) when there
 * is one and the lap passed at least one of its corners; otherwise those
 * detected from the lap's line (`source: "lap"`). `circuit` may offer
 * several maps (a circuit named without its direction: its layout driven
 * either way round); the lap takes the one it passes most corners of, the
 * first of equals.
 */
export function lapCorners(
  trace: LapTrace,
  authored: readonly Corner[] | null = null,
  detect: Partial<DetectOptions> = {},
  circuit: CornerMap | readonly CornerMap[] | null = null,
): LocatedCorners {
  if (authored && authored.length > 0) {
    const corners = authoredCorners(trace, authored);
    if (corners.length > 0) return { source: "authored", corners, definitions: authored };
  }
  const maps = circuit === null ? [] : "corners" in circuit ? [circuit] : circuit;
  let best: LocatedCorners | null = null;
  for (const map of maps) {
    if (map.corners.length === 0) continue;
    const corners = authoredCorners(trace, map.corners);
    if (corners.length > 0 && (best === null || corners.length > best.corners.length)) {
      best = { source: "circuit", corners, definitions: map.corners };
    }
  }
  return best ?? { source: "lap", corners: detectCorners(trace, detect), definitions: null };
}
