// @ts-check
/**
 * The live page's pure rules: how times read, how full the brake marker is,
 * when a cue is due and what the lap's biggest loss says. No DOM here, so
 * Deno tests import this file as the browser does.
 *
 * @module
 */

/** Seconds before the reference's braking point over which the brake bar fills. */
export const BRAKE_WINDOW_S = 2.5;
/** Seconds ahead of the braking point "brake" is spoken: speech takes about this long to start. */
export const SPEECH_LEAD_S = 0.3;
/** Seconds before the braking point the countdown tones sound (the last, long, at the point). */
export const TONE_STEPS_S = [1.0, 0.5, 0.05];

/**
 * A lap time as m:ss.mmm, under a minute too (`0:05.083`, as the analysis
 * pages and the dashboard write it); "--:--.---" for null.
 * @param {number | null | undefined} ms
 * @returns {string}
 */
export function lapTime(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "--:--.---";
  const whole = Math.round(ms);
  const m = Math.floor(whole / 60000);
  const s = ((whole % 60000) / 1000).toFixed(3).padStart(6, "0");
  return `${m}:${s}`;
}

/**
 * A gap in seconds with its sign: "+0.31", "-1.20"; "--.--" for null.
 * @param {number | null | undefined} ms
 * @returns {string}
 */
export function gap(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "--.--";
  const s = Math.abs(ms) / 1000;
  return `${ms < 0 ? "-" : "+"}${s.toFixed(2)}`;
}

/**
 * Seconds until the braking point at the car's speed; Infinity when standing.
 * @param {{ distance_m: number }} next
 * @param {number} speedKmh
 * @returns {number}
 */
export function secondsToBrake(next, speedKmh) {
  const v = speedKmh / 3.6;
  return v > 0.5 ? next.distance_m / v : Infinity;
}

/**
 * How full the brake bar is, 0..1: empty {@linkcode BRAKE_WINDOW_S} or more
 * before the point, full at it. 0 without a marker.
 * @param {{ distance_m: number } | null} next
 * @param {number} speedKmh
 * @returns {number}
 */
export function brakeFill(next, speedKmh) {
  if (!next) return 0;
  const t = secondsToBrake(next, speedKmh);
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, Math.max(0, 1 - t / BRAKE_WINDOW_S));
}

/**
 * The brake cues due for a frame, each once per lap and corner: `seen` holds
 * the keys already given and is updated. In "voice" mode one cue ("brake")
 * {@linkcode SPEECH_LEAD_S} before the point; in "tones" one per step of
 * {@linkcode TONE_STEPS_S} (step index 2 is the long one); "off" gives none.
 * @param {{ lap: number, speed_kmh: number, next_brake: { corner: number, distance_m: number } | null }} frame
 * @param {"voice" | "tones" | "off"} mode
 * @param {Set<string>} seen
 * @returns {{ kind: "speak", text: string } [] | { kind: "tone", step: number }[]}
 */
export function brakeCues(frame, mode, seen) {
  const next = frame.next_brake;
  if (!next || mode === "off") return [];
  const t = secondsToBrake(next, frame.speed_kmh);
  const base = `${frame.lap}:${next.corner}`;
  if (mode === "voice") {
    if (t > SPEECH_LEAD_S || seen.has(base)) return [];
    seen.add(base);
    return [{ kind: "speak", text: "brake" }];
  }
  /** @type {{ kind: "tone", step: number }[]} */
  const tones = [];
  TONE_STEPS_S.forEach((at, step) => {
    const key = `${base}:${step}`;
    if (t <= at && !seen.has(key)) {
      seen.add(key);
      tones.push({ kind: "tone", step });
    }
  });
  // Passing two steps between frames sounds only the later one.
  return tones.length > 1 ? [tones[tones.length - 1]] : tones;
}

/**
 * What is said when a lap ends: its time and the gap to the best it was
 * driven against ("1 32.41, 0.31 slower" or "... new best by 0.20").
 * @param {number} timeMs
 * @param {number | null} bestMs
 * @returns {string}
 */
export function lapSentence(timeMs, bestMs) {
  const whole = Math.round(timeMs / 10) / 100;
  const m = Math.floor(whole / 60);
  const s = (whole - m * 60).toFixed(2).padStart(5, "0");
  const said = m > 0 ? `${m} ${s}` : s;
  if (bestMs === null || !Number.isFinite(bestMs)) return said;
  const d = Math.round((timeMs - bestMs) / 10) / 100;
  if (d > 0) return `${said}, ${d.toFixed(2)} slower`;
  if (d < 0) return `${said}, new best by ${(-d).toFixed(2)}`;
  return `${said}, equal to best`;
}

/**
 * The single biggest loss of a lap in words, from its corner report against
 * the reference (rows most time lost first): "Turn 4: 0.21 s, braked 12 m
 * early". Null when no corner lost 0.01 s or more.
 * @param {{ name: string, delta_s: number | null, brake_m: number | null, ref_brake_m: number | null, min_kmh: number }[]} rows
 * @returns {string | null}
 */
export function biggestLoss(rows) {
  const worst = rows.find((r) => r.delta_s !== null);
  if (!worst || worst.delta_s === null || worst.delta_s < 0.01) return null;
  const head = `${worst.name}: ${worst.delta_s.toFixed(2)} s`;
  if (worst.brake_m !== null && worst.ref_brake_m !== null) {
    const d = Math.round(worst.brake_m - worst.ref_brake_m);
    if (d <= -1) return `${head}, braked ${-d} m early`;
    if (d >= 1) return `${head}, braked ${d} m late`;
  }
  return head;
}

/**
 * The lap at the end of which to pit: the last lap the fuel completes
 * (as GET /api/strategy counts it), never before the current lap; null
 * without a fuel figure.
 * @param {number} lap
 * @param {number} clockMs
 * @param {{ laps_to_empty: number | null, lap_time_ms: number | null }} strategy
 * @returns {number | null}
 */
export function pitLap(lap, clockMs, strategy) {
  if (strategy.laps_to_empty === null || strategy.lap_time_ms === null || lap < 1) return null;
  const share = Math.min(1, Math.max(0, clockMs / strategy.lap_time_ms));
  return Math.max(lap, Math.floor(lap - 1 + share + strategy.laps_to_empty));
}

/**
 * How many of `n` shift lights are lit at `rpm` over the rev-alert range
 * (none below `min`, all at `max`); 0 when the range is unknown.
 * @param {number} rpm
 * @param {{ min: number, max: number }} alert
 * @param {number} n
 * @returns {number}
 */
export function shiftLights(rpm, alert, n) {
  if (!(alert.max > alert.min) || rpm < alert.min) return 0;
  return Math.min(n, 1 + Math.floor((rpm - alert.min) / (alert.max - alert.min) * (n - 1)));
}

/**
 * How a sector split compares: "pb" at or under the personal best, "good"
 * within 0.2 s of it, "slow" beyond; "" without one to compare.
 * @param {number | null} ms
 * @param {number | null} bestMs
 * @returns {"pb" | "good" | "slow" | ""}
 */
export function sectorClass(ms, bestMs) {
  if (ms === null || bestMs === null) return "";
  if (ms <= bestMs) return "pb";
  return ms - bestMs <= 200 ? "good" : "slow";
}

/**
 * The words shown before a corner the last lap lost time at, from the
 * frame's `cue` (src/app/live/live_cue.ts: present only from 300 m before the
 * corner's braking point until the car reaches it), in two parts drawn at
 * two sizes: the cue ("Turn 4: brake later") and the time lost there
 * ("(0.21 s lost)"); null without a cue.
 * @param {{ text: string, loss_s: number } | null | undefined} cue
 * @returns {{ head: string, loss: string } | null}
 */
export function cueParts(cue) {
  if (!cue) return null;
  return { head: cue.text, loss: `(${cue.loss_s.toFixed(2)} s lost)` };
}

/**
 * The cue line to show for frame `f`, timed with the brake marker: the
 * frame's cue ({@linkcode cueParts}) only while the marker is up for the same
 * corner, that is while its bar fills ({@linkcode brakeFill} above 0: within
 * {@linkcode BRAKE_WINDOW_S} of the braking point at the car's speed), so
 * the words and the bar come and go together; null otherwise (no cue, no
 * marker, a marker for another corner, or still too far).
 * @param {{ cue?: { text: string, n: number, loss_s: number } | null,
 *   next_brake: { corner: number, distance_m: number } | null, speed_kmh: number }} f
 * @returns {{ head: string, loss: string } | null}
 */
export function timedCue(f) {
  const next = f.next_brake;
  if (!f.cue || !next || next.corner !== f.cue.n) return null;
  return brakeFill(next, f.speed_kmh) > 0 ? cueParts(f.cue) : null;
}

/**
 * @typedef {Pick<import("./api_types.js").LapRow, "session_id" | "number">} ReferenceLap
 * Where the reference lap was driven: its row of `GET /api/laps?ids=ID`.
 */

/**
 * The header's words for the lap the delta is against, named as a driver
 * knows it (the session and the lap's number in it, never the store's lap
 * id, which no screen shows): `vs this session's best, 1:33.500 (lap 3)` when
 * it is a lap of `sessionId`, `vs your best here, 1:33.500 (session 2, lap 4)`
 * when another session's, `vs the reference, 1:33.500` while `lap` is not
 * known, and `no reference yet` when `timeMs` is null. A `label` (the
 * frame's `delta.reference_label`, "your best · Suzuka Circuit 2:05.431")
 * is said as it is, after "vs ", whatever the rest.
 * @param {number | null} timeMs
 * @param {ReferenceLap | null} lap
 * @param {number | null} sessionId
 * @param {string | null | undefined} [label]
 * @returns {string}
 */
export function referenceLine(timeMs, lap, sessionId, label = null) {
  // The server's own words (the live frame's `delta.reference_label`) say it best: they name the
  // circuit, and while naming hesitates, the layouts whose road the car is on.
  if (label) return `vs ${label}`;
  if (timeMs === null) return "no reference yet";
  const time = lapTime(timeMs);
  if (!lap) return `vs the reference, ${time}`;
  if (lap.session_id === sessionId) return `vs this session's best, ${time} (lap ${lap.number})`;
  return `vs your best here, ${time} (session ${lap.session_id}, lap ${lap.number})`;
}
