/**
 * The track map as SVG: the road filled, the borders coloured by what they
 * are (wall, run-off, marked edge, or inferred from telemetry), gaps in the
 * survey dashed, the finish line, and the authored corners numbered. Drawn in
 * world metres (x right, z down), so one drawing unit is one metre.
 *
 * @module
 */
import { type MapFrame, mapFrame } from "./map_frame.ts";
import type { CompiledTrack, MarkedKind } from "./types.ts";

/** Colours of the map, as #rrggbb. */
export const MAP_COLOURS = {
  background: "#1d2b1f",
  road: "#4a4a4a",
  inferred: "#c8c8c8",
  edge: "#ffffff",
  runoff: "#3d9be9",
  wall: "#e2453c",
  gap: "#f5a623",
  finish: "#ffffff",
  corner: "#ffd54a",
} as const satisfies Record<string, string>;

/** Options of {@linkcode renderMapSvg}. */
export interface SvgMapOptions {
  /** Width of the drawing in pixels (default 1000); the height follows the track's shape. */
  width?: number;
}

/** A drawn map: the SVG text and the world rectangle it shows. */
export interface SvgMap {
  svg: string;
  frame: MapFrame;
  /** Pixel size of the drawing. */
  width: number;
  height: number;
}

function f(n: number): string {
  return String(Math.round(n * 100) / 100);
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

function polyline(points: readonly (readonly [number, number, ...unknown[]])[]): string {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${f(p[0])} ${f(p[1])}`).join("");
}

/**
 * Draws `doc` as a standalone SVG document (well-formed XML, UTF-8). Line
 * widths scale with the track so a small circuit and a large one read alike.
 */
export function renderMapSvg(doc: CompiledTrack, opts: SvgMapOptions = {}): SvgMap {
  const frame = mapFrame(doc);
  const width = Math.max(16, Math.round(opts.width ?? 1000));
  const height = Math.max(16, Math.round((width * frame.spanZ) / frame.spanX));
  // Line widths in metres: thin enough for the road, visible at any zoom.
  const unit = Math.max(frame.spanX, frame.spanZ) / 1000;
  const stroke = Math.max(0.4, 1.5 * unit);
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
  out.push(
    `<g id="borders" fill="none" stroke-linecap="round" stroke-linejoin="round" stroke-width="${
      f(stroke)
    }">`,
  );
  for (const side of ["L", "R"] as const) {
    for (const line of doc.borders[side]) {
      out.push(`<path class="inferred" d="${polyline(line)}" stroke="${MAP_COLOURS.inferred}"/>`);
    }
    for (const stretch of doc.border_kinds[side]) {
      const colour = MAP_COLOURS[stretch.kind satisfies MarkedKind];
      out.push(`<path class="${stretch.kind}" d="${polyline(stretch.line)}" stroke="${colour}"/>`);
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
  out.push(`</svg>`);
  return { svg: out.join("\n") + "\n", frame, width, height };
}
