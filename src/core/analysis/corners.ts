/**
 * Which corners a lap is analysed by: the circuit's authored corners
 * outrank the ones detected from the lap's line (SPEC 2.1.5).
 *
 * @module
 */
import type { Corner } from "../bundle/types.ts";
import { authoredCorners } from "./corners_authored.ts";
import { detectCorners, type DetectOptions } from "./corners_detect.ts";
import type { LapTrace } from "./lap_trace.ts";
import type { LapCorners } from "./types.ts";

/**
 * The lap's corners: the authored ones (`source: "authored"`) when the
 * bundle has corners and the lap passed at least one of them; otherwise
 * those detected from the lap's line (`source: "detected"`).
 */
export function lapCorners(
  trace: LapTrace,
  authored: readonly Corner[] | null = null,
  detect: Partial<DetectOptions> = {},
): LapCorners {
  if (authored && authored.length > 0) {
    const corners = authoredCorners(trace, authored);
    if (corners.length > 0) return { source: "authored", corners };
  }
  return { source: "detected", corners: detectCorners(trace, detect) };
}
