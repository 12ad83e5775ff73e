/**
 * The track map as SVG: the road filled, the driven line faint beneath the
 * borders, the borders coloured by what they are (wall, run-off, marked
 * edge, or inferred from telemetry, left and right apart), gaps in the survey
 * dashed, the finish line with an arrow the way the circuit is driven, and
 * the authored corners numbered; under the map, a band with the circuit's
 * name, a legend of what is drawn and a scale bar. Drawn in world metres (x
 * right, z down), so one drawing unit is one metre.
 *
 * @module
 */
import { type ExtraLines, type MapFrame, mapFrame } from "./map_frame.ts";
import {
  arrowPath,
  bandHeightPx,
  escapeXml,
  f,
  keyBand,
  type LegendEntry,
  roundScaleLength,
  travelHeading,
} from "./svg_map_key.ts";
import type { CompiledTrack, MarkedKind } from "./types.ts";

/** Colours of the map, as #rrggbb. */
export const MAP_COLOURS = {
  background: "#1d2b1f",
  road: "#4a4a4a",
  /** Left border, inferred from telemetry. */
  left: "#c8c8c8",
  /** Right border, inferred from telemetry. */
  right: "#c9a8ff",
  edge: "#ffffff",
  runoff: "#3d9be9",
  wall: "#e2453c",
  gap: "#f5a623",
  finish: "#ffffff",
  corner: "#ffd54a",
  driven: "#8c8c8c",
  arrow: "#ffd54a",
  text: "#ffffff",
} as const satisfies Record<string, string>;

/** Options of {@linkcode renderMapSvg}. */
export interface SvgMapOptions {
  /** Width of the drawing in pixels (default 1000); the height follows the track's shape. */
  width?: number;
  /** The driven line, [x, z] world metres, drawn faint beneath the borders. */
  driven?: ExtraLines;
}

/** A drawn map: the SVG text and the world rectangle it shows. */
export interface SvgMap {
  svg: string;
  /** The world rectangle of the whole drawing, the band under the map included. */
  frame: MapFrame;
  /** Length of the scale bar, metres (its label says the same). */
  scale_m: number;
  /** Pixel size of the drawing. */
  width: number;
  height: number;
}

function polyline(points: readonly (readonly [number, number, ...unknown[]])[]): string {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${f(p[0])} ${f(p[1])}`).join("");
}

/** What the legend calls each marked kind. */
const KIND_LABEL: Record<MarkedKind, string> = {
  wall: "wall",
  runoff: "paved run-off",
  edge: "marked edge",
};

/** Legend entries for what `doc` (and the driven line) actually draws, in drawing order. */
function legendOf(doc: CompiledTrack, driven: boolean): LegendEntry[] {
  const out: LegendEntry[] = [];
  if (driven) out.push({ label: "driven line", colour: MAP_COLOURS.driven, thin: true });
  if (doc.borders.L.length > 0) out.push({ label: "left border", colour: MAP_COLOURS.left });
  if (doc.borders.R.length > 0) out.push({ label: "right border", colour: MAP_COLOURS.right });
  for (const kind of ["edge", "runoff", "wall"] as const) {
    if ([...doc.border_kinds.L, ...doc.border_kinds.R].some((s) => s.kind === kind)) {
      out.push({ label: KIND_LABEL[kind], colour: MAP_COLOURS[kind] });
    }
  }
  if (doc.gaps.L.length + doc.gaps.R.length > 0) {
    out.push({ label: "survey gap", colour: MAP_COLOURS.gap, dashed: true });
  }
  if (doc.finish) out.push({ label: "start/finish", colour: MAP_COLOURS.finish });
  return out;
}

/**
 * Draws `doc` as a standalone SVG document (well-formed XML, UTF-8, every
 * text escaped). Line widths scale with the track so a small circuit and a
 * large one read alike. The driven line, when given, is drawn before (so
 * beneath) the borders; the band under the map holds the name, a legend of
 * exactly what is drawn and a scale bar of a round length no longer than
 * 30 % of the map's width.
 */
export function renderMapSvg(doc: CompiledTrack, opts: SvgMapOptions = {}): SvgMap {
  const driven = (opts.driven ?? []).filter((line) => line.length >= 2);
  const map = mapFrame(doc, undefined, 0.05, driven);
  const width = Math.max(16, Math.round(opts.width ?? 1000));
  const mpp = map.spanX / width;
  const legend = legendOf(doc, driven.length > 0);
  const bandM = bandHeightPx(legend, width) * mpp;
  const frame: MapFrame = { ...map, spanZ: map.spanZ + bandM };
  const height = Math.max(16, Math.round((width * frame.spanZ) / frame.spanX));
  // Line widths in metres: thin enough for the road, visible at any zoom.
  const unit = Math.max(map.spanX, map.spanZ) / 1000;
  const stroke = Math.max(0.4, 1.5 * unit);
  const scaleM = roundScaleLength(0.3 * map.spanX);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="${f(frame.minX)} ${f(frame.minZ)} ${f(frame.spanX)} ${f(frame.spanZ)}">`,
  );
  out.push(`<title>${escapeXml(doc.track)}</title>`);
  out.push(
    `<rect x="${f(frame.minX)}" y="${f(frame.minZ)}" width="${f(frame.spanX)}" ` +
      `height="${f(frame.spanZ)}" fill="${MAP_COLOURS.background}"/>`,
  );
  if (doc.road.length > 0) {
    const quads = doc.road.map((q) =>
      `M${f(q[0])} ${f(q[1])}L${f(q[2])} ${f(q[3])}L${f(q[4])} ${f(q[5])}L${f(q[6])} ${f(q[7])}Z`
    ).join("");
    // Crisp edges: anti-aliasing each quad would leave faint seams where neighbours meet.
    out.push(
      `<path id="road" d="${quads}" fill="${MAP_COLOURS.road}" stroke="${MAP_COLOURS.road}" ` +
        `stroke-width="${f(stroke / 2)}" stroke-linejoin="round" shape-rendering="crispEdges"/>`,
    );
  }
  if (driven.length > 0) {
    // Before the borders, so they are drawn over it: where a border was found it wins.
    out.push(
      `<g id="driven" fill="none" stroke="${MAP_COLOURS.driven}" stroke-width="${
        f(0.6 * stroke)
      }" stroke-linecap="round" stroke-linejoin="round">`,
    );
    for (const line of driven) out.push(`<path d="${polyline(line)}"/>`);
    out.push(`</g>`);
  }
  out.push(...bordersGroup(doc, stroke));
  const gaps = [...doc.gaps.L, ...doc.gaps.R];
  if (gaps.length > 0) {
    out.push(
      `<g id="gaps" stroke="${MAP_COLOURS.gap}" stroke-width="${f(stroke)}" stroke-dasharray="${
        f(4 * stroke)
      } ${f(3 * stroke)}">`,
    );
    for (const g of gaps) {
      out.push(`<line x1="${f(g[0])}" y1="${f(g[1])}" x2="${f(g[2])}" y2="${f(g[3])}"/>`);
    }
    out.push(`</g>`);
  }
  if (doc.finish) {
    const [x1, z1, x2, z2] = doc.finish;
    out.push(
      `<line id="finish" x1="${f(x1)}" y1="${f(z1)}" x2="${f(x2)}" y2="${f(z2)}" ` +
        `stroke="${MAP_COLOURS.finish}" stroke-width="${f(2 * stroke)}"/>`,
    );
  }
  const heading = travelHeading(doc, driven);
  if (heading) {
    // Starts 4 px past the line, so the finish line stays visible behind the arrow's base.
    const base = {
      ...heading,
      x: heading.x + 4 * mpp * heading.hx,
      z: heading.z + 4 * mpp * heading.hz,
    };
    out.push(
      `<path id="direction" d="${arrowPath(base, 24 * mpp)}" fill="${MAP_COLOURS.arrow}" ` +
        `stroke="#000000" stroke-width="${f(mpp)}" stroke-linejoin="round">` +
        `<title>direction of travel</title></path>`,
    );
  }
  if (doc.corners.length > 0) {
    const r = 6 * stroke;
    out.push(
      `<g id="corners" font-family="sans-serif" font-size="${f(1.4 * r)}" text-anchor="middle">`,
    );
    for (const c of doc.corners) {
      out.push(
        `<g class="corner"><title>${escapeXml(c.name || `Turn ${c.n}`)}</title>` +
          `<circle cx="${f(c.x)}" cy="${f(c.z)}" r="${f(r)}" fill="${MAP_COLOURS.corner}"/>` +
          `<text x="${f(c.x)}" y="${f(c.z + 0.5 * r)}" fill="#000000">${c.n}</text></g>`,
      );
    }
    out.push(`</g>`);
  }
  out.push(
    ...keyBand(doc.track, legend, scaleM, {
      x0: map.minX,
      z0: map.minZ + map.spanZ,
      widthPx: width,
      mpp,
    }),
  );
  out.push(`</svg>`);
  return { svg: out.join("\n") + "\n", frame, scale_m: scaleM, width, height };
}

/** The borders group: each side's lines, its marked stretches and the wall ticks. */
function bordersGroup(doc: CompiledTrack, stroke: number): string[] {
  const out: string[] = [];
  out.push(
    `<g id="borders" fill="none" stroke-linecap="round" stroke-linejoin="round" stroke-width="${
      f(stroke)
    }">`,
  );
  for (const side of ["L", "R"] as const) {
    const colour = side === "L" ? MAP_COLOURS.left : MAP_COLOURS.right;
    const cls = side === "L" ? "left" : "right";
    for (const line of doc.borders[side]) {
      out.push(`<path class="${cls}" d="${polyline(line)}" stroke="${colour}"/>`);
    }
    for (const stretch of doc.border_kinds[side]) {
      const kind = stretch.kind satisfies MarkedKind;
      out.push(
        `<path class="${kind}" d="${polyline(stretch.line)}" stroke="${MAP_COLOURS[kind]}"/>`,
      );
    }
  }
  for (const w of doc.walls) {
    out.push(
      `<path class="wall-tick" d="M${f(w[0])} ${f(w[1])}L${f(w[2])} ${
        f(w[3])
      }" stroke="${MAP_COLOURS.wall}"/>`,
    );
  }
  out.push(`</g>`);
  return out;
}
