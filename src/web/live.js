// @ts-check
/// <reference lib="dom" />
/**
 * The live page: reads GET /api/live (Server-Sent Events) and draws the
 * newest frame once per animation frame, by writing text and classes into
 * fixed elements (no framework: at 60 frames a second the cheapest draw is
 * the one that touches only what changed). Spoken cues and their settings
 * live here too; the rules they follow are in cues.js.
 *
 * @module
 */
import {
  biggestLoss,
  brakeCues,
  brakeFill,
  cueLine,
  gap,
  lapSentence,
  lapTime,
  pitLap,
  referenceLine,
  shiftLights,
  TONE_STEPS_S,
} from "./cues.js";
import { noSectors, sectorCells, sectorFrame, sectorLapStored } from "./live_sectors.js";
import { showMessage } from "./hub_message_box.js";

/**
 * @typedef {import("./api_types.js").LiveFrame} LiveFrame
 * @typedef {import("./api_types.js").LapEvent} LapEvent
 * @typedef {import("./api_types.js").SectorBests} SectorBests
 * @typedef {import("./api_types.js").LapRow} LapRow
 */

/** Seconds without a frame before the page says telemetry stopped. */
const STALE_S = 2;
/** Seconds without any frame after which an open stream is rebuilt (a half-open connection). */
const REBUILD_S = 30;
/** Shift lights drawn. */
const LIGHTS = 10;
const SETTINGS_KEY = "sim-datalogger.live.settings";
/** How many draw latencies the page keeps for its own figures (window.liveStats). */
const LATENCY_KEEP = 20000;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The device's settings, kept in localStorage.
 * @type {{ speak: boolean, mode: "voice" | "tones" | "off", verbosity: "coach" | "lap", volume: number }}
 */
const settings = { speak: false, mode: "voice", verbosity: "coach", volume: 1 };
try {
  Object.assign(settings, JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}"));
} catch {
  // A broken entry leaves the defaults.
}

/** What the page measures of itself; read by the browser test and the latency bench. */
const stats = {
  frames: 0,
  drawn: 0,
  /** Packet id of the frame drawn last. */
  packet: -1,
  /** The newest frame received (drawn or not). */
  frame: /** @type {LiveFrame | null} */ (null),
  /** Per draw: ms from the frame's `at` (the logger handled its packet) to the draw. */
  latencies: /** @type {number[]} */ ([]),
  /** Per draw: [packet id, draw time in ms since the epoch], to time from elsewhere. */
  draws: /** @type {[number, number][]} */ ([]),
  connects: 0,
};
Object.assign(window, { liveStats: stats });

/** @type {LiveFrame | null} */
let latest = null;
/** @type {LiveFrame | null} */
let previous = null;
let dirty = false;
let lastFrameAt = 0;
let speaking = false;
/** @type {EventSource | null} */
let source = null;
const cued = new Set();
/** The live session's id as /api/status last told it, or null. */
let sessionId = /** @type {number | null} */ (null);
/** The reference lap the header describes, and its row (null until read). */
let refDescribed = /** @type {number | null} */ (null);
let refLap = /** @type {LapRow | null} */ (null);
/** Sector splits as this page timed them (live_sectors.js). */
let sectors = noSectors();
/** The personal best per sector at this circuit in this car, ms (index 0 = sector 1). */
let sectorBest = /** @type {(number | null)[]} */ ([]);

// ---- the stream ----

function connect() {
  source?.close();
  const url = `/api/live?hz=60${settings.speak ? "&speak=1" : ""}`;
  const es = new EventSource(url);
  source = es;
  es.addEventListener("open", () => {
    stats.connects++;
    setState();
    loadSession();
  });
  es.addEventListener("error", () => setState());
  es.addEventListener("frame", (e) => {
    /** @type {LiveFrame} */
    const frame = JSON.parse(/** @type {MessageEvent} */ (e).data);
    latest = frame;
    lastFrameAt = Date.now();
    stats.frames++;
    stats.frame = frame;
    onFrame(frame);
    if (!dirty) {
      dirty = true;
      requestAnimationFrame(draw);
    }
  });
  es.addEventListener("lap", (e) => onLap(JSON.parse(/** @type {MessageEvent} */ (e).data)));
  es.addEventListener("session", () => loadSession());
  es.addEventListener("speaker", (e) => {
    speaking = JSON.parse(/** @type {MessageEvent} */ (e).data).speaking === true;
    showSpeaker();
  });
}

// A watchdog: EventSource retries a dropped connection by itself, but gives up for good after
// an answer that is not a stream, and never notices a connection that died silently (a phone
// that slept); rebuild it in both cases.
let rebuiltAt = Date.now();
setInterval(() => {
  const now = Date.now();
  if (!source || source.readyState === EventSource.CLOSED) connect();
  else if (now - Math.max(lastFrameAt, rebuiltAt) > REBUILD_S * 1000) {
    // Once per REBUILD_S of silence; the count of "no telemetry for N s" runs on.
    rebuiltAt = now;
    connect();
  }
  setState();
}, 1000);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && Date.now() - lastFrameAt > STALE_S * 1000) {
    connect();
  }
});

function setState() {
  const el = $("state");
  const stale = $("stale");
  const open = source?.readyState === EventSource.OPEN;
  if (!open) {
    el.textContent = "reconnecting";
    el.className = "state bad";
    stale.hidden = false;
    stale.textContent = "no connection to the logger, reconnecting";
    return;
  }
  const quiet = lastFrameAt ? Math.floor((Date.now() - lastFrameAt) / 1000) : null;
  if (quiet === null || quiet >= STALE_S) {
    const text = quiet === null ? "no telemetry yet" : `no telemetry for ${quiet} s`;
    el.textContent = text;
    el.className = "state warn";
    stale.hidden = false;
    stale.textContent = text;
  } else {
    el.textContent = "live";
    el.className = "state ok";
    stale.hidden = true;
  }
}

async function loadSession() {
  try {
    const res = await fetch("/api/status");
    const status = await res.json();
    const s = status.live?.session;
    const track = s?.track_name || "unnamed circuit";
    $("where").textContent = s ? `session ${s.id}: ${track} · ${s.car_name}` : "no session yet";
    sessionId = s?.id ?? null;
    // The bests shown stay until the new ones are in: each lap reloads them, and emptying them
    // meanwhile would draw the sectors uncoloured for a moment.
    /** @type {(number | null)[]} */
    let best = [];
    if (s?.track_name) {
      const q = new URLSearchParams({ track: s.track_name, car: String(s.car_id) });
      const r = await fetch(`/api/analysis/sectors?${q}`);
      if (r.ok) {
        const body = await r.json();
        best = /** @type {SectorBests} */ (body).sectors.map((x) =>
          x.best_s === null ? null : Math.round(x.best_s * 1000)
        );
      }
    }
    sectorBest = best;
  } catch {
    // The watchdog reconnects; the next open reloads this.
  }
}

/**
 * Reads reference lap `id`'s row (its session and number), so the header
 * names it as a driver knows it; whether it is this session's is decided
 * at each draw, so a new session needs no second read.
 * @param {number | null} id
 */
async function describeReference(id) {
  refDescribed = id;
  refLap = null;
  if (id === null) return;
  try {
    const res = await fetch(`/api/laps?ids=${id}`);
    if (!res.ok || refDescribed !== id) return;
    /** @type {LapRow[]} */
    const rows = await res.json();
    refLap = rows.find((l) => l.id === id) ?? null;
    // The row may land between frames of a car standing still: draw it now, not at the next frame.
    if (!dirty) {
      dirty = true;
      requestAnimationFrame(draw);
    }
  } catch {
    // Said without where it was driven.
  }
}

// ---- per frame (not drawn yet) ----

/** @param {LiveFrame} f */
function onFrame(f) {
  previous = f;
  sectors = sectorFrame(sectors, f);
  // The team hub's message to the driver (--share-live): shown, and said when the voice is on.
  showMessage(f, settings.speak && speaking ? (words) => say(words) : null);
  if (settings.speak && speaking) {
    for (const cue of brakeCues(f, settings.mode, cued)) {
      if (cue.kind === "speak") say(cue.text, true);
      else tone(cue.step);
    }
  }
}

/** @param {LapEvent} event */
async function onLap(event) {
  const lap = event.lap;
  if (lap) sectors = sectorLapStored(sectors, lap.number, lap.time_ms);
  const refMs = previous?.delta?.reference_lap_ms ?? null;
  const refId = previous?.delta?.reference_lap_id ?? null;
  loadSession();
  if (!settings.speak || !speaking || !lap?.complete) return;
  say(lapSentence(lap.time_ms, refMs));
  if (settings.verbosity !== "coach" || refId === null || refId === lap.id) return;
  try {
    const res = await fetch(`/api/analysis/corners?lap=${lap.id}&ref=${refId}`);
    if (!res.ok) return;
    const loss = biggestLoss((await res.json()).corners);
    if (loss) say(loss);
  } catch {
    // No report, nothing said.
  }
}

// ---- drawing, once per animation frame ----

/** @param {string} id @param {string} text */
function text(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

/** @param {string} id @param {string} cls */
function cls(id, cls) {
  const el = $(id);
  if (el.className !== cls) el.className = cls;
}

function draw() {
  dirty = false;
  const f = latest;
  if (!f) return;
  const d = f.delta;
  // Ahead is green, behind red; the bar grows from the middle, full at two seconds.
  const side = d.delta_ms === null ? "" : d.delta_ms <= 0 ? "ahead" : "behind";
  text("delta", gap(d.delta_ms));
  cls("delta", `huge ${side}`);
  const fill = $("delta-fill");
  const w = d.delta_ms === null ? 0 : Math.min(1, Math.abs(d.delta_ms) / 2000) * 50;
  fill.style.width = `${w}%`;
  fill.style.left = d.delta_ms !== null && d.delta_ms > 0 ? "50%" : `${50 - w}%`;
  fill.className = side;
  text("predicted", lapTime(d.predicted_lap_ms));
  text("best", lapTime(d.reference_lap_ms));
  if (d.reference_lap_id !== refDescribed) describeReference(d.reference_lap_id);
  text(
    "reference",
    referenceLine(d.reference_lap_id === null ? null : d.reference_lap_ms, refLap, sessionId),
  );
  text("current", lapTime(f.lap_clock_ms));
  text("lap-no", String(f.lap));
  text("gear", f.gear === 0 ? "N" : String(f.gear));
  text("speed", String(Math.round(f.speed_kmh)));
  drawShift(f);
  drawBrake(f);
  drawSectors(f);
  text("fuel-laps", f.fuel_laps_left === null ? "--" : f.fuel_laps_left.toFixed(1));
  const pit = pitLap(f.lap, f.lap_clock_ms, f.strategy);
  text("pit-lap", pit === null ? "--" : String(pit));
  cls("fuel", `cell${f.fuel_laps_left !== null && f.fuel_laps_left < 2 ? " low" : ""}`);
  f.tyre_temp_c.forEach((/** @type {number} */ c, /** @type {number} */ i) => {
    text(`tyre-${i}`, `${Math.round(c)}°`);
    cls(`tyre-box-${i}`, `tyre ${c < 60 ? "cold" : c > 100 ? "hot" : "ok"}`);
  });
  stats.drawn++;
  stats.packet = f.packet_id;
  const now = performance.timeOrigin + performance.now();
  if (stats.latencies.length < LATENCY_KEEP) {
    stats.latencies.push(now - Date.parse(f.at));
    stats.draws.push([f.packet_id, now]);
  }
}

/** @param {LiveFrame} f */
function drawShift(f) {
  const box = $("shift");
  if (box.childElementCount !== LIGHTS) {
    box.replaceChildren(...Array.from({ length: LIGHTS }, () => document.createElement("i")));
  }
  const lit = shiftLights(f.rpm, f.rpm_alert, LIGHTS);
  const lights = box.children;
  for (let i = 0; i < LIGHTS; i++) {
    const want = i < lit ? (i >= LIGHTS - 2 ? "on top" : i >= LIGHTS / 2 ? "on mid" : "on") : "";
    if (lights[i].className !== want) lights[i].className = want;
  }
  box.classList.toggle("limit", f.rev_limit);
}

/** @param {LiveFrame} f */
function drawBrake(f) {
  const next = f.next_brake;
  const fill = brakeFill(next, f.speed_kmh);
  const bar = $("brake-bar");
  bar.dataset.fill = fill.toFixed(2);
  $("brake-fill").style.width = `${Math.round(fill * 100)}%`;
  const state = fill >= 0.9 ? "now" : fill >= 0.5 ? "near" : "";
  cls("brake-bar", state);
  cls("brake-box", `cell${state === "now" ? " now" : ""}`);
  text("brake-label", next ? `${next.name} ${Math.round(next.distance_m)} m` : "no brake marker");
  // The corner the last lap lost most at, shown over the straight before it.
  const cue = cueLine(f.cue);
  const cueEl = $("cue");
  if (cueEl.hidden !== (cue === null)) cueEl.hidden = cue === null;
  text("cue", cue ?? "");
}

/** @param {LiveFrame} f */
function drawSectors(f) {
  const cells = sectorCells(sectors, f, sectorBest);
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

// ---- speech and tones ----

/** @param {string} words @param {boolean} [urgent] */
function say(words, urgent = false) {
  if (!("speechSynthesis" in window)) return;
  const u = new SpeechSynthesisUtterance(words);
  u.volume = settings.volume;
  u.rate = urgent ? 1.3 : 1.1;
  // A brake call never waits behind a sentence.
  if (urgent) speechSynthesis.cancel();
  speechSynthesis.speak(u);
}

/** @type {AudioContext | null} */
let audio = null;

/** @param {number} step */
function tone(step) {
  audio ??= new AudioContext();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  const last = step === TONE_STEPS_S.length - 1;
  osc.frequency.value = last ? 1320 : 880;
  gain.gain.value = settings.volume * 0.4;
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + (last ? 0.35 : 0.08));
}

/**
 * Mobile browsers let a page speak or sound only after a touch has done so
 * once: the first touch after speech is on does both, silently.
 */
function unlockAudio() {
  if (!settings.speak) return;
  if ("speechSynthesis" in window) {
    const u = new SpeechSynthesisUtterance("");
    u.volume = 0;
    speechSynthesis.speak(u);
  }
  audio ??= new AudioContext();
  if (audio.state === "suspended") audio.resume();
  document.removeEventListener("pointerdown", unlockAudio);
}
document.addEventListener("pointerdown", unlockAudio);

// ---- settings ----

function saveSettings() {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

function showSpeaker() {
  text(
    "voice-toggle",
    !settings.speak ? "voice off" : speaking ? "voice on" : "voice: another device",
  );
  text(
    "speaker-state",
    !settings.speak
      ? ""
      : speaking
      ? "this device speaks"
      : "another device speaks; switch speech off there or reload here to take over",
  );
}

function initSettings() {
  const speak = /** @type {HTMLInputElement} */ ($("set-speak"));
  const mode = /** @type {HTMLSelectElement} */ ($("set-mode"));
  const verbosity = /** @type {HTMLSelectElement} */ ($("set-verbosity"));
  const volume = /** @type {HTMLInputElement} */ ($("set-volume"));
  speak.checked = settings.speak;
  mode.value = settings.mode;
  verbosity.value = settings.verbosity;
  volume.value = String(settings.volume);
  $("voice-toggle").addEventListener("click", () => {
    const panel = $("settings");
    panel.hidden = !panel.hidden;
    $("voice-toggle").setAttribute("aria-expanded", String(!panel.hidden));
  });
  speak.addEventListener("change", () => {
    settings.speak = speak.checked;
    speaking = false;
    saveSettings();
    showSpeaker();
    // The click is the gesture browsers want before they make a sound.
    unlockAudio();
    connect();
  });
  mode.addEventListener("change", () => {
    settings.mode = /** @type {typeof settings.mode} */ (mode.value);
    saveSettings();
  });
  verbosity.addEventListener("change", () => {
    settings.verbosity = /** @type {typeof settings.verbosity} */ (verbosity.value);
    saveSettings();
  });
  volume.addEventListener("input", () => {
    settings.volume = Number(volume.value);
    saveSettings();
  });
  showSpeaker();
}

initSettings();
connect();
setState();
