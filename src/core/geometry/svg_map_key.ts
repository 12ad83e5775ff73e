/**
 * What the SVG map draws to be read on its own: the arrow showing which way
 * the circuit is driven, and the band under the map with the circuit's name,
 * a legend of what is drawn and a scale bar of a round length. Everything is
 * sized in pixels of the drawing (converted to metres with `mpp`, metres per
 * pixel), so it reads alike on a small circuit and a large one.
 *
 * @module
 */
import type { ExtraLines } from "./map_frame.ts";
import type { CompiledTrack } from "./types.ts";

/** A number for SVG text: at most 2 dp, no exponent for map-sized values. */
export function f(n: number): string {
  return String(Math.round(n * 100) / 100);
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** `text` with the five XML special characters escaped, safe in text and attributes. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * The longest round length (1, 2 or 5 times a power of ten, at least 1 m)
 * that is at most `maxM` metres.
 */
export function roundScaleLength(maxM: number): number {
  if (!(maxM >= 1)) return 1;
  const p = 10 ** Math.floor(Math.log10(maxM));
  for (const k of [5, 2, 1]) if (k * p <= maxM) return k * p;
  return p;
}

/** How the scale bar names `m` metres: `500 m`, `2 km`. */
export function scaleLabel(m: number): string {
  return m >= 1000 ? `${m / 1000} km` : `${m} m`;
}

/** A point and a unit direction of travel. */
export interface Heading {
  x: number;
  z: number;
  hx: number;
  hz: number;
}

/** The first step of at least 1 m along `line`, as a heading at its start. */
function headingAlong(line: readonly (readonly [number, number, ...unknown[]])[]): Heading | null {
  if (line.length < 2) return null;
  const [x, z] = line[0];
  for (let i = 1; i < line.length; i++) {
    const dx = line[i][0] - x;
    const dz = line[i][1] - z;
    const d = Math.hypot(dx, dz);
    if (d >= 1) return { x, z, hx: dx / d, hz: dz / d };
  }
  return null;
}

/**
 * Where the map's direction arrow goes and which way it points: across the
 * middle of the finish line, the way its crossings were driven (the line
 * runs from the right of the car to its left); without a finish line, at
 * the start of the driven line, else of the first left border, else of the
 * first centreline run. Null when nothing says which way the car went.
 */
export function travelHeading(doc: CompiledTrack, driven: ExtraLines): Heading | null {
  if (doc.finish) {
    const [x1, z1, x2, z2] = doc.finish;
    const d = Math.hypot(x2 - x1, z2 - z1);
    // The finish runs from centre - leftOf(h) to centre + leftOf(h), leftOf(h) = (hz, -hx).
    if (d > 0) {
      return { x: (x1 + x2) / 2, z: (z1 + z2) / 2, hx: -(z2 - z1) / d, hz: (x2 - x1) / d };
    }
  }
  for (const line of [...driven, ...doc.borders.L, ...doc.centerline]) {
    const h = headingAlong(line);
    if (h) return h;
  }
  return null;
}

/** The direction arrow: a triangle `len` metres long from `h`'s point along its heading. */
export function arrowPath(h: Heading, len: number): string {
  const half = len * 0.4;
  const lx = h.hz;
  const lz = -h.hx;
  const tip = [h.x + h.hx * len, h.z + h.hz * len];
  const a = [h.x + lx * half, h.z + lz * half];
  const b = [h.x - lx * half, h.z - lz * half];
  return `M${f(tip[0])} ${f(tip[1])}L${f(a[0])} ${f(a[1])}L${f(b[0])} ${f(b[1])}Z`;
}

/** One legend entry: how its swatch is drawn and what it says. */
export interface LegendEntry {
  label: string;
  colour: string;
  /** Dashed swatch (the survey gaps). */
  dashed?: boolean;
  /** Thin swatch (the driven line). */
  thin?: boolean;
}

/** Pixel sizes of the band under the map. */
const BAND = { pad: 8, row: 20, font: 13, swatch: 18, gap: 14 } as const;

/** Rough width of `text` in pixels at `font` (sans-serif averages about 0.6 em a character). */
function textWidth(text: string, font: number): number {
  return 0.6 * font * [...text].length;
}

/** The legend's rows: entries packed left to right, a new row when the next would overflow. */
function legendRows(entries: readonly LegendEntry[], widthPx: number): LegendEntry[][] {
  const rows: LegendEntry[][] = [];
  let used = 0;
  for (const e of entries) {
    const w = BAND.swatch + 5 + textWidth(e.label, BAND.font) + BAND.gap;
    if (rows.length === 0 || (used > 0 && used + w > widthPx - 2 * BAND.pad)) {
      rows.push([]);
      used = 0;
    }
    rows[rows.length - 1].push(e);
    used += w;
  }
  return rows;
}

/** The band's height in pixels for `entries` across `widthPx`. */
export function bandHeightPx(entries: readonly LegendEntry[], widthPx: number): number {
  return 2 * BAND.pad + BAND.row * (2 + legendRows(entries, widthPx).length);
}

/** Where the band goes: its top-left world point, and metres per pixel. */
export interface BandPlace {
  x0: number;
  z0: number;
  widthPx: number;
  mpp: number;
}

/**
 * The band under the map as SVG elements: the circuit's name (escaped), the
 * legend (`<g id="legend">`, one `<g class="legend-entry">` each) and the
 * scale bar (`<path id="scale-bar">` exactly `scaleM` metres long, as
 * `h<metres>`, with its label).
 */
export function keyBand(
  title: string,
  entries: readonly LegendEntry[],
  scaleM: number,
  at: BandPlace,
): string[] {
  const { x0, z0, widthPx, mpp } = at;
  const px = (n: number) => n * mpp;
  const out: string[] = [];
  const font = f(px(BAND.font));
  out.push(
    `<text id="heading" x="${f(x0 + px(BAND.pad))}" y="${f(z0 + px(BAND.pad + 14))}" ` +
      `font-family="sans-serif" font-weight="bold" font-size="${f(px(15))}" ` +
      `fill="#ffffff">${escapeXml(title)}</text>`,
  );
  out.push(
    `<g id="legend" font-family="sans-serif" font-size="${font}" fill="#ffffff" ` +
      `stroke-linecap="round">`,
  );
  const rows = legendRows(entries, widthPx);
  rows.forEach((row, r) => {
    let x = BAND.pad;
    const y = BAND.pad + BAND.row * (r + 1) + 10;
    for (const e of row) {
      const sw = e.thin ? 1.5 : 3;
      const dash = e.dashed ? ` stroke-dasharray="${f(px(4))} ${f(px(3))}"` : "";
      out.push(
        `<g class="legend-entry"><path d="M${f(x0 + px(x))} ${f(z0 + px(y - 4))}h${
          f(px(BAND.swatch))
        }" stroke="${e.colour}" stroke-width="${f(px(sw))}"${dash}/>` +
          `<text x="${f(x0 + px(x + BAND.swatch + 5))}" y="${f(z0 + px(y))}">${
            escapeXml(e.label)
          }</text></g>`,
      );
      x += BAND.swatch + 5 + textWidth(e.label, BAND.font) + BAND.gap;
    }
  });
  out.push(`</g>`);
  const y = z0 + px(BAND.pad + BAND.row * (rows.length + 1) + 12);
  const x = x0 + px(BAND.pad);
  const tick = px(4);
  out.push(
    `<g id="scale" stroke="#ffffff" stroke-width="${f(px(2))}" font-family="sans-serif" ` +
      `font-size="${font}">` +
      `<path id="scale-bar" d="M${f(x)} ${f(y)}h${scaleM}"/>` +
      `<path class="scale-tick" d="M${f(x)} ${f(y - tick)}v${f(2 * tick)}M${f(x + scaleM)} ${
        f(y - tick)
      }v${f(2 * tick)}"/>` +
      `<text x="${f(x + scaleM + px(6))}" y="${f(y + px(4))}" stroke="none" fill="#ffffff">${
        scaleLabel(scaleM)
      }</text></g>`,
  );
  return out;
}
