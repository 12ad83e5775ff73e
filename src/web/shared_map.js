// @ts-check
/**
 * The compare page's track map, drawn as SVG so it scales crisply and saves
 * as a file: the reference's driven line cut into short stretches, each
 * coloured by the time the compared lap lost or gained over it (or by the
 * reference's speed), the circuit's corners at their apexes with their
 * stable numbers, a dot per lap at the shared cursor, and under it all the
 * compiled bundle's borders when the circuit has one. World x runs right and
 * world z down, as on the logger's own SVG map (so the driver's left stays
 * on the left of the direction of travel).
 *
 * @module
 */

const NS = "http://www.w3.org/2000/svg";

/** Stretches the line is cut into at most; few enough for a cheap draw, many enough to read. */
const STRETCHES = 480;

/**
 * @typedef {{ n: number, apex?: { x: number, z: number } | null }} MapCorner
 * @typedef {Pick<import("./api_types.js").CompiledTrack, "borders">} Compiled
 * @typedef {{ x: ArrayLike<number | null>, z: ArrayLike<number | null>, colour: string }} MapLap
 * @typedef {{ side: "L" | "R", line: ArrayLike<number | null>[] }} BorderLine
 * @typedef {{ minX: number, minZ: number, width: number, height: number, unit: number }} MapFrame
 * The map's world rectangle (its padding included) and its unit: a 400th
 * of the larger side, what strokes and labels are sized in.
 */

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 */
function node(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * A colour from green (value -1, gained) through grey (0) to red (+1, lost).
 * @param {number} v
 */
export function deltaColour(v) {
  const t = Math.max(-1, Math.min(1, v));
  if (t >= 0) {
    return `rgb(${Math.round(140 + 115 * t)},${Math.round(140 - 100 * t)},${
      Math.round(140 - 100 * t)
    })`;
  }
  const g = -t;
  return `rgb(${Math.round(140 - 100 * g)},${Math.round(140 + 90 * g)},${
    Math.round(140 - 60 * g)
  })`;
}

/**
 * A colour from blue (slowest, 0) through yellow to red (fastest, 1).
 * @param {number} f
 */
export function speedColour(f) {
  const t = Math.max(0, Math.min(1, f));
  const hue = 240 - 240 * t;
  return `hsl(${hue.toFixed(0)},85%,55%)`;
}

/**
 * The rectangle the map shows: every point of the reference's line and of
 * the borders, padded by 6 % of the larger side, which is at least 50 m (a
 * map of no points is 50 m around the origin).
 * @param {MapLap} ref
 * @param {BorderLine[]} borders
 * @returns {MapFrame}
 */
export function mapFrame(ref, borders) {
  let minX = Infinity, maxX = -Infinity, minZ = Infinity, maxZ = -Infinity;
  const grow = (/** @type {number | null} */ x, /** @type {number | null} */ z) => {
    if (x === null || z === null || !Number.isFinite(x) || !Number.isFinite(z)) return;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  };
  for (let i = 0; i < ref.x.length; i++) grow(ref.x[i], ref.z[i]);
  for (const { line } of borders) for (const p of line) grow(p[0], p[1]);
  if (minX === Infinity) {
    minX =
      maxX =
      minZ =
      maxZ =
        0;
  }
  const span = Math.max(maxX - minX, maxZ - minZ, 50);
  const pad = span * 0.06;
  return {
    minX: minX - pad,
    minZ: minZ - pad,
    width: maxX - minX + 2 * pad,
    height: maxZ - minZ + 2 * pad,
    unit: span / 400,
  };
}

/**
 * The grid index spans the line is cut into: at most `most` of them, each
 * sharing its last index with the next one's first, together covering
 * 0 … n − 1.
 * @param {number} n the grid's length
 * @param {number} most
 * @returns {[number, number][]}
 */
export function stretchSpans(n, most) {
  const step = Math.max(1, Math.ceil(n / most));
  /** @type {[number, number][]} */
  const spans = [];
  for (let a = 0; a < n - 1; a += step) spans.push([a, Math.min(n - 1, a + step)]);
  return spans;
}

/**
 * Each value scaled for a colour scale: with `symmetric`, to -1..1 by the
 * largest magnitude (so the worst stretch is full red or green whatever the
 * laps); otherwise to 0..1 from the smallest to the largest. A value that
 * is not finite scales to 0. Returns the scaled values and the range.
 * @param {number[]} values
 * @param {boolean} symmetric
 * @returns {{ scaled: number[], lo: number, hi: number }}
 */
export function paintScale(values, symmetric) {
  const finite = values.filter((v) => Number.isFinite(v));
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const mag = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
  const scaled = values.map((v) =>
    !Number.isFinite(v) ? 0 : symmetric ? v / mag : (v - lo) / (hi - lo || 1)
  );
  return { scaled, lo, hi };
}

/**
 * The svg element framing `f`, titled `title` for screen readers, on a dark ground.
 * @param {MapFrame} f
 * @param {string} title
 */
function frameSvg(f, title) {
  const svg = node("svg", {
    xmlns: NS,
    viewBox: `${f.minX.toFixed(1)} ${f.minZ.toFixed(1)} ${f.width.toFixed(1)} ${
      f.height.toFixed(1)
    }`,
    id: "track-map",
    role: "img",
    "aria-label": title,
  });
  const titleNode = node("title", {});
  titleNode.textContent = title;
  svg.append(titleNode);
  svg.append(node("rect", {
    x: f.minX,
    y: f.minZ,
    width: f.width,
    height: f.height,
    fill: "#101010",
  }));
  return svg;
}

/**
 * The compiled borders, left grey and right lilac.
 * @param {BorderLine[]} lines
 * @param {number} unit
 */
function bordersGroup(lines, unit) {
  const g = node("g", { id: "map-borders", fill: "none", "stroke-linejoin": "round" });
  for (const { side, line } of lines) {
    g.append(node("polyline", {
      points: line.map((p) => `${p[0]},${p[1]}`).join(" "),
      stroke: side === "L" ? "#bdbdbd" : "#b9a3e3",
      "stroke-width": unit * 0.9,
      "data-side": side,
    }));
  }
  return g;
}

/**
 * The reference's line, one polyline per stretch (a stretch of fewer than
 * two known points is left out), with the grid span each one covers.
 * @param {MapLap} ref
 * @param {number} unit
 * @returns {{ g: Element, stretches: { el: Element, from: number, to: number }[] }}
 */
function lineGroup(ref, unit) {
  const g = node("g", {
    id: "map-line",
    fill: "none",
    "stroke-width": unit * 2.2,
    "stroke-linecap": "round",
  });
  /** @type {{ el: Element, from: number, to: number }[]} */
  const stretches = [];
  for (const [a, b] of stretchSpans(ref.x.length, STRETCHES)) {
    const pts = [];
    for (let i = a; i <= b; i++) {
      const px = ref.x[i];
      const pz = ref.z[i];
      if (px !== null && pz !== null) pts.push(`${px.toFixed(2)},${pz.toFixed(2)}`);
    }
    if (pts.length < 2) continue;
    const e = node("polyline", { points: pts.join(" "), stroke: "#888" });
    g.append(e);
    stretches.push({ el: e, from: a, to: b });
  }
  return { g, stretches };
}

/**
 * The corners at their apexes, each numbered.
 * @param {MapCorner[]} corners
 * @param {number} unit
 */
function cornersGroup(corners, unit) {
  const g = node("g", {
    id: "map-corners",
    "font-family": "system-ui, sans-serif",
    "font-size": unit * 9,
    fill: "#fff",
  });
  for (const c of corners) {
    if (!c.apex) continue;
    g.append(node("circle", { cx: c.apex.x, cy: c.apex.z, r: unit * 2, fill: "#fff" }));
    const label = node("text", {
      x: c.apex.x + unit * 4,
      y: c.apex.z - unit * 4,
      "data-corner": c.n,
      stroke: "#000",
      "stroke-width": unit * 0.8,
      "paint-order": "stroke",
    });
    label.textContent = `T${c.n}`;
    g.append(label);
  }
  return g;
}

/**
 * Draws the map into `holder`. `laps[0]` is the reference, whose line is
 * drawn; each lap gets a cursor dot, hidden until the cursor is on a chart.
 * @param {HTMLElement} holder
 * @param {MapLap[]} laps
 * @param {MapCorner[]} corners
 * @param {Compiled | null} compiled
 * @param {string} title
 */
export function makeMap(holder, laps, corners, compiled, title) {
  const ref = laps[0];
  /** @type {BorderLine[]} */
  const borderLines = [];
  for (const side of /** @type {const} */ (["L", "R"])) {
    for (const line of compiled?.borders?.[side] ?? []) borderLines.push({ side, line });
  }
  const frame = mapFrame(ref, borderLines);
  const unit = frame.unit;
  const svg = frameSvg(frame, title);
  const line = lineGroup(ref, unit);
  svg.append(bordersGroup(borderLines, unit), line.g, cornersGroup(corners, unit));
  const dots = node("g", { id: "map-cursor" });
  const dotEls = laps.map((l, i) => {
    const d = node("circle", {
      r: unit * (i === 0 ? 4.5 : 3.5),
      fill: l.colour,
      stroke: "#000",
      "stroke-width": unit,
      visibility: "hidden",
      "data-lap": i,
    });
    dots.append(d);
    return d;
  });
  svg.append(dots);
  holder.replaceChildren(svg);

  return {
    svg,
    /**
     * Colours each stretch by `valueOf(from, to)` scaled for `colour` (see
     * {@linkcode paintScale}); returns the range of the values.
     * @param {(from: number, to: number) => number} valueOf
     * @param {(v: number) => string} colour
     * @param {boolean} symmetric
     */
    paint(valueOf, colour, symmetric) {
      const values = line.stretches.map((s) => valueOf(s.from, s.to));
      const { scaled, lo, hi } = paintScale(values, symmetric);
      line.stretches.forEach((s, i) => s.el.setAttribute("stroke", colour(scaled[i])));
      return { lo, hi };
    },
    /**
     * Puts each lap's dot at grid index `idx` (null hides them).
     * @param {number | null} idx
     */
    cursor(idx) {
      laps.forEach((l, i) => {
        const d = dotEls[i];
        const px = idx === null ? null : l.x[idx];
        const pz = idx === null ? null : l.z[idx];
        if (px === null || pz === null || px === undefined || pz === undefined) {
          d.setAttribute("visibility", "hidden");
          return;
        }
        d.setAttribute("cx", px.toFixed(2));
        d.setAttribute("cy", pz.toFixed(2));
        d.setAttribute("visibility", "visible");
      });
    },
    /** The map as a standalone SVG file's text. */
    text() {
      return `<?xml version="1.0" encoding="UTF-8"?>\n${
        new XMLSerializer().serializeToString(svg)
      }`;
    },
  };
}
