// @ts-check
/**
 * The race engineer's page, /live/{driver} on the hub (#40): that driver's
 * frames from GET /api/live/{driver} (an EventSource, token in the query),
 * drawn with the live page's own rules (gap, lap times, sectors, fuel plan,
 * tyres: cues.js, live_sectors.js, live.css), a map of where the car has
 * been this session, who it is (GET /api/live), and a line to message the
 * driver (POST /api/messages). Drawn once per animation frame at most.
 *
 * @module
 */
import { gap, lapTime, pitLap, referenceLine } from "./cues.js";
import { noSectors, sectorCells, sectorFrame } from "./live_sectors.js";
import { hubFetch, hubToken } from "./hub_token.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const driver = decodeURIComponent(location.pathname.replace(/^\/live\//, ""));
/** Map points kept: a few laps at 10 Hz. */
const TRAIL = 6000;

/** @type {any} */
let latest = null;
let sectors = noSectors();
/** @type {[number, number][]} */
const trail = [];
let dirty = false;
/**
 * Frames received and drawn, and the packet of the frame last drawn, for
 * tests and the curious: what the page shows is that frame's.
 */
const stats = { frames: 0, drawn: 0, packet_id: /** @type {number | null} */ (null) };
Object.assign(globalThis, { engineerStats: stats });

/** @param {string} id @param {string} text */
function text(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

function connect() {
  const url = `/api/live/${encodeURIComponent(driver)}?token=${encodeURIComponent(hubToken())}`;
  const es = new EventSource(url);
  es.onopen = () => setState("live", "state ok");
  es.onerror = () => setState("reconnecting", "state warn");
  es.addEventListener("frame", (e) => {
    const data = JSON.parse(/** @type {MessageEvent} */ (e).data);
    latest = data.frame;
    stats.frames++;
    sectors = sectorFrame(sectors, latest);
    if (latest.position) {
      trail.push([latest.position.x, latest.position.z]);
      if (trail.length > TRAIL) trail.shift();
    }
    if (!dirty) {
      dirty = true;
      requestAnimationFrame(draw);
    }
  });
}

/** @param {string} words @param {string} cls */
function setState(words, cls) {
  text("state", words);
  $("state").className = cls;
}

function draw() {
  dirty = false;
  const f = latest;
  if (!f) return;
  const d = f.delta ?? {};
  const side = d.delta_ms == null ? "" : d.delta_ms <= 0 ? "ahead" : "behind";
  text("delta", gap(d.delta_ms ?? null));
  $("delta").className = `huge ${side}`;
  const fill = $("delta-fill");
  const w = d.delta_ms == null ? 0 : Math.min(1, Math.abs(d.delta_ms) / 2000) * 50;
  fill.style.width = `${w}%`;
  fill.style.left = d.delta_ms != null && d.delta_ms > 0 ? "50%" : `${50 - w}%`;
  fill.className = side;
  text("predicted", lapTime(d.predicted_lap_ms ?? null));
  text("best", lapTime(d.reference_lap_ms ?? null));
  // The logger's own words for the reference (circuit, whose lap, "same road so far"), as the
  // live page's header says them; older loggers send none.
  const refMs = d.reference_lap_id == null ? null : d.reference_lap_ms ?? null;
  text("reference", referenceLine(refMs, null, null, d.reference_label ?? null));
  text("current", lapTime(f.lap_clock_ms ?? null));
  text("lap-no", String(f.lap));
  drawSectors(f);
  text("fuel-laps", f.fuel_laps_left == null ? "--" : f.fuel_laps_left.toFixed(1));
  const pit = f.strategy ? pitLap(f.lap, f.lap_clock_ms, f.strategy) : null;
  text("pit-lap", pit === null ? "--" : String(pit));
  (f.tyre_temp_c ?? []).forEach((/** @type {number} */ c, /** @type {number} */ i) => {
    text(`tyre-${i}`, `${Math.round(c)}°`);
    $(`tyre-box-${i}`).className = `tyre ${c < 60 ? "cold" : c > 100 ? "hot" : "ok"}`;
  });
  drawMap();
  stats.drawn++;
  stats.packet_id = f.packet_id ?? null;
}

/** @param {any} f */
function drawSectors(f) {
  const cells = sectorCells(sectors, f, []);
  const box = $("sectors");
  if (box.childElementCount !== cells.length) {
    box.replaceChildren(...cells.map(() => document.createElement("div")));
  }
  cells.forEach((cell, k) => {
    const el = /** @type {HTMLElement} */ (box.children[k]);
    if (el.textContent !== cell.text) el.textContent = cell.text;
    if (el.className !== cell.cls) el.className = cell.cls;
  });
}

/** The trail scaled into the canvas, north up, the car a dot at its end. */
function drawMap() {
  const canvas = /** @type {HTMLCanvasElement} */ ($("map"));
  const ctx = canvas.getContext("2d");
  if (!ctx || trail.length < 2) return;
  const xs = trail.map((p) => p[0]), zs = trail.map((p) => p[1]);
  const [x0, x1, z0, z1] = [Math.min(...xs), Math.max(...xs), Math.min(...zs), Math.max(...zs)];
  const scale = Math.min(
    (canvas.width - 20) / (x1 - x0 || 1),
    (canvas.height - 20) / (z1 - z0 || 1),
  );
  /** @param {[number, number]} p @returns {[number, number]} */
  const at = (p) => [10 + (p[0] - x0) * scale, 10 + (p[1] - z0) * scale];
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#9a9a9a";
  ctx.beginPath();
  trail.forEach((p, i) => (i ? ctx.lineTo(...at(p)) : ctx.moveTo(...at(p))));
  ctx.stroke();
  const [cx, cy] = at(trail[trail.length - 1]);
  ctx.fillStyle = "#ffb000";
  ctx.beginPath();
  ctx.arc(cx, cy, 6, 0, 2 * Math.PI);
  ctx.fill();
}

async function who() {
  text("who", driver);
  try {
    const { drivers } = await hubFetch("/api/live");
    const row = drivers.find((/** @type {any} */ d) => d.driver === driver);
    const where = row
      ? `${row.track_name ?? row.circuit ?? "circuit unknown"} · car ${row.car_id ?? "?"}`
      : "not on track";
    text("where", where);
  } catch (err) {
    text("where", String(err instanceof Error ? err.message : err));
  }
}

/** @param {SubmitEvent} e */
async function sendMessage(e) {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($("message"));
  try {
    const sent = await hubFetch("/api/messages", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ driver, text: input.value }),
    });
    text("message-state", `sent #${sent.id}`);
    input.value = "";
  } catch (err) {
    text("message-state", String(err instanceof Error ? err.message : err));
  }
}

$("message-form").addEventListener("submit", (e) => sendMessage(/** @type {SubmitEvent} */ (e)));
connect();
who();
setInterval(who, 10_000);
