// @ts-check
/**
 * The live page's small circuit map: the reference lap's driven line (the
 * lap the delta is against, from `GET /api/analysis/compare` on a 5 m grid),
 * its corners at their apexes (`GET /api/analysis/corners`, the same report
 * the brake marker comes from), the next corner ringed, and the car's marker
 * (`data-car`) at the live frame's world position. World x runs right and z
 * down, as on the compare page's map (shared_map.js, whose framing this
 * reuses), so the two maps look alike. Read again only when the reference
 * lap changes; each draw moves the marker and the ring, nothing else.
 *
 * @module
 */
import { mapFrame } from "./shared_map.js";

const NS = "http://www.w3.org/2000/svg";
/** Grid step of the line asked for, m: a few hundred points for a whole circuit, enough at this size. */
const STEP_M = 5;

/**
 * A corner as the map needs it: number, name, apex distance and place.
 * @typedef {{ n: number, name: string, apex_m: number, apex: { x: number, z: number } }} MapCorner
 * @typedef {{ x: (number | null)[], z: (number | null)[], corners: MapCorner[] }} LiveMapData
 */

/**
 * The corner the car comes to next: the brake marker's corner when the
 * frame has one (the server matched the car to the reference's line), else
 * the first corner whose apex is further into the lap than the car (the
 * first one again past the last); null without corners.
 * @param {readonly MapCorner[]} corners in lap order
 * @param {{ distance_m: number, next_brake: { corner: number } | null }} f
 * @returns {MapCorner | null}
 */
export function nextCornerOf(corners, f) {
  if (corners.length === 0) return null;
  const marked = f.next_brake ? corners.find((c) => c.n === f.next_brake?.corner) : undefined;
  if (marked) return marked;
  return corners.find((c) => c.apex_m > f.distance_m) ?? corners[0];
}

/**
 * The reference lap's line and corners, or null when either was refused
 * (the map then says it has none).
 * @param {number} refId
 * @returns {Promise<LiveMapData | null>}
 */
export async function fetchMapData(refId) {
  const line = fetch(
    `/api/analysis/compare?laps=${refId}&ref=${refId}&step=${STEP_M}&channels=pos_x,pos_z`,
  );
  const report = fetch(`/api/analysis/corners?lap=${refId}`);
  const [a, b] = await Promise.all([line, report]);
  if (!a.ok || !b.ok) return null;
  /** @type {import("./api_types.js").Comparison} */
  const cmp = await a.json();
  /** @type {import("./api_types.js").CornerReport} */
  const rep = await b.json();
  const ch = cmp.laps[0]?.channels;
  if (!ch?.pos_x || !ch.pos_z) return null;
  return { x: ch.pos_x, z: ch.pos_z, corners: rep.corners };
}

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
 * Draws `data` into `holder` and returns what moves: `draw(frame)` puts
 * the car's marker at the frame's position and rings the next corner.
 * @param {HTMLElement} holder
 * @param {LiveMapData} data
 */
export function makeLiveMap(holder, data) {
  const f = mapFrame({ x: data.x, z: data.z, colour: "" }, []);
  const u = f.unit;
  const svg = node("svg", {
    viewBox: `${f.minX.toFixed(1)} ${f.minZ.toFixed(1)} ${f.width.toFixed(1)} ${
      f.height.toFixed(1)
    }`,
    role: "img",
    "aria-label": "the circuit, the car and the next corner",
  });
  const pts = [];
  for (let i = 0; i < data.x.length; i++) {
    const px = data.x[i];
    const pz = data.z[i];
    if (px !== null && pz !== null) pts.push(`${px.toFixed(1)},${pz.toFixed(1)}`);
  }
  svg.append(node("polyline", {
    points: pts.join(" "),
    fill: "none",
    stroke: "#8a8a8a",
    "stroke-width": u * 8,
    "stroke-linejoin": "round",
  }));
  for (const c of data.corners) {
    svg.append(node("circle", { cx: c.apex.x, cy: c.apex.z, r: u * 4, fill: "#bbb" }));
  }
  const ring = node("circle", {
    r: u * 14,
    fill: "none",
    stroke: "#ffb000",
    "stroke-width": u * 5,
    "data-next": "",
    visibility: "hidden",
  });
  const label = node("text", {
    "font-size": u * 36,
    "font-weight": 700,
    fill: "#ffb000",
    stroke: "#000",
    "stroke-width": u * 6,
    "paint-order": "stroke",
    "data-next-label": "",
  });
  const car = node("circle", {
    r: u * 11,
    fill: "#fff",
    stroke: "#000",
    "stroke-width": u * 4,
    "data-car": "",
    visibility: "hidden",
  });
  svg.append(ring, label, car);
  holder.replaceChildren(svg);
  let nextN = /** @type {number | null} */ (null);
  const midX = f.minX + f.width / 2;
  const midZ = f.minZ + f.height / 2;

  return {
    /**
     * Moves the marker to `fr.position` and rings the next corner.
     * @param {{ position: { x: number, z: number }, distance_m: number,
     *   next_brake: { corner: number } | null }} fr
     */
    draw(fr) {
      car.setAttribute("cx", fr.position.x.toFixed(1));
      car.setAttribute("cy", fr.position.z.toFixed(1));
      car.setAttribute("visibility", "visible");
      const next = nextCornerOf(data.corners, fr);
      if ((next?.n ?? null) === nextN) return;
      nextN = next?.n ?? null;
      ring.setAttribute("visibility", next ? "visible" : "hidden");
      label.textContent = next ? `T${next.n}` : "";
      if (!next) return;
      ring.setAttribute("cx", String(next.apex.x));
      ring.setAttribute("cy", String(next.apex.z));
      // Beside the ring on the side of the map's middle, so a corner at an edge keeps its name.
      const right = next.apex.x < midX;
      label.setAttribute("text-anchor", right ? "start" : "end");
      label.setAttribute("x", String(next.apex.x + (right ? 1 : -1) * u * 20));
      label.setAttribute("y", String(next.apex.z + (next.apex.z < midZ ? u * 48 : -u * 22)));
    },
  };
}
