// @ts-check
/**
 * The laps page (`/laps`, `/laps?track=SLUG&car=ID`): every session and lap
 * in the store, filtered by circuit and car, incomplete laps marked; the
 * bests board, one row per circuit and car with its theoretical best (and,
 * for a session not yet named, its own best, since its laps count for that
 * session only); and a picker of two to five laps that opens the compare
 * page. Everything comes from the public API. Shown by the router
 * (pages.js); the picks outlive the page, so coming back from a comparison
 * keeps them. On the team hub, whose `/api/laps` names each lap's driver,
 * the laps are drawn by team_laps.js instead (a Driver column and filter).
 *
 * `window.lapsPage` exposes the rows and picks, for the browser tests.
 *
 * @module
 */
import { $, api, el, lapTime, signed } from "./shared_api.js";
import { showTeamLaps } from "./team_laps.js";
import { listedRows } from "./team_rows.js";

/** Laps a comparison takes at most, as the page draws them. */
const MAX_PICK = 5;
/** Laps one answer of `/api/laps` lists at most: the page asks for that many. */
const LIST_LIMIT = 1000;

/**
 * What the filters judge a lap or a best by: its circuit and car.
 * @typedef {{ circuit: string | null, car_id: number }} Keepable
 */

/** The laps picked for the comparison, in the order picked. */
/** @type {number[]} */
const picked = [];

/**
 * @typedef {import("./api_types.js").LapRow} LapRow
 * @typedef {import("./api_types.js").BestRow} BestRow
 * @typedef {import("./api_types.js").SessionRow} SessionRow
 * @typedef {import("./api_types.js").SectorBests} SectorBests
 * @typedef {{
 *   ready: boolean, picked: number[], known: Map<number, LapRow>, drawn: number,
 *   bestLaps: number[],
 * }} LapsPage
 * What `window.lapsPage` holds: the picks, every lap row seen by id, how
 * many times the lists were drawn, and the laps on the bests board.
 */

/** @type {LapsPage} */
let page = { ready: false, picked, known: new Map(), drawn: 0, bestLaps: [] };

/**
 * Draws the laps page of the address; resolves once it is drawn. Listeners
 * go with `view.signal`, so the next page the router shows removes them.
 * @param {import("./pages.js").ViewContext} view
 * @returns {Promise<string>} the `data-ready` state to show
 */
export async function showLaps(view) {
  const { signal } = view;
  page = { ready: false, picked, known: new Map(), drawn: 0, bestLaps: [] };
  Object.assign(window, { lapsPage: page });
  document.title = "laps · sim-datalogger";
  // The listing's shape says whose page this is: the team hub's has no sessions nor bests to ask.
  const listed = listedRows(await api(`/api/laps?limit=${LIST_LIMIT}`));
  if (signal.aborted) return "aborted";
  if (listed.team) {
    const drawn = () => void (page.drawn += 1);
    await showTeamLaps(view, listed.rows, {
      box: pickBox,
      known: page.known,
      limit: LIST_LIMIT,
      drawn,
    });
    $("compare").addEventListener("click", (e) => openCompare(view, e), { signal });
    showPicks();
    page.ready = true;
    return signal.aborted ? "aborted" : "true";
  }
  const rows = listed.rows;
  const [bests, sessions] = /** @type {[BestRow[], SessionRow[]]} */ (
    await Promise.all([api("/api/laps/bests"), api("/api/sessions")])
  );
  if (signal.aborted) return "aborted";
  /** Every lap row seen, by id: what the picker looks laps up in. */
  const known = page.known;
  for (const r of rows) known.set(r.id, r);
  const q = new URLSearchParams(location.search);
  const circuitSel = /** @type {HTMLSelectElement} */ ($("filter-circuit"));
  const carSel = /** @type {HTMLSelectElement} */ ($("filter-car"));
  /** @type {Map<string, string>} */
  const circuits = new Map();
  /** @type {Map<number, string>} */
  const cars = new Map();
  for (const r of [...rows, ...bests]) {
    if (r.circuit) circuits.set(r.circuit, r.track);
    cars.set(r.car_id, r.car_name);
  }
  // Shown again (back from a comparison): the lists are made anew.
  circuitSel.replaceChildren(el("option", { value: "" }, ["all"]));
  carSel.replaceChildren(el("option", { value: "" }, ["all"]));
  for (const [slug, name] of [...circuits].sort((a, b) => a[1].localeCompare(b[1]))) {
    circuitSel.append(el("option", { value: slug }, [name]));
  }
  // Offered only when there is something to pick: an empty choice reads as a store gone wrong.
  if (rows.some((r) => r.circuit === null)) {
    circuitSel.append(el("option", { value: "-" }, ["unnamed"]));
  }
  for (const [id, name] of [...cars].sort((a, b) => a[1].localeCompare(b[1]))) {
    carSel.append(el("option", { value: String(id) }, [name]));
  }
  circuitSel.value = q.get("track") ?? "";
  carSel.value = q.get("car") ?? "";

  /** Sessions kept out of bests: their laps stand on no board. */
  const excluded = new Set(
    sessions.filter((s) => s.bests_excluded).map((s) => s.id),
  );
  /** @type {Map<string, Promise<SectorBests>>} */
  const asked = new Map();
  let latest = 0;
  const draw = async () => {
    const mine = ++latest;
    const track = circuitSel.value;
    const car = carSel.value;
    const u = new URLSearchParams();
    if (track) u.set("track", track);
    if (car) u.set("car", car);
    history.replaceState(null, "", u.size ? `/laps?${u}` : "/laps");
    const keep = (/** @type {Keepable} */ r) =>
      (track === "" || (track === "-" ? r.circuit === null : r.circuit === track)) &&
      (car === "" || String(r.car_id) === car);
    // A named circuit or a car is filtered by the API, so laps older than
    // the latest 1,000 of the whole store still show; unnamed sessions are
    // picked from the latest 1,000.
    let shown = rows;
    const byApi = (track !== "" && track !== "-") || car !== "";
    if (byApi) {
      const p = new URLSearchParams({ limit: String(LIST_LIMIT) });
      if (track !== "" && track !== "-") p.set("track", circuits.get(track) ?? track);
      if (car !== "") p.set("car", car);
      shown = /** @type {LapRow[]} */ (await api(`/api/laps?${p}`));
      for (const r of shown) known.set(r.id, r);
    }
    if (mine !== latest || signal.aborted) return;
    drawBests(bests, shown, keep, excluded, asked);
    drawSessions(sessions, shown.filter(keep));
    // A full answer may have left older laps out: say how to reach them.
    $("sessions-note").textContent = shown.length < LIST_LIMIT
      ? ""
      : byApi
      ? `The latest ${LIST_LIMIT.toLocaleString("en")} laps of this circuit or car are listed.`
      : `The store's latest ${LIST_LIMIT.toLocaleString("en")} laps are listed: ` +
        "pick a circuit or a car to reach older ones.";
    page.drawn += 1;
  };
  const redraw = () => {
    draw().catch((err) => $("message").textContent = String(err?.message ?? err));
  };
  circuitSel.addEventListener("change", redraw, { signal });
  carSel.addEventListener("change", redraw, { signal });
  $("compare").addEventListener("click", (e) => openCompare(view, e), { signal });
  showPicks();
  await draw();
  page.ready = true;
  return "true";
}

/**
 * The bests board: the API's best per named circuit and car, then each
 * unnamed session's own best per car, each with the theoretical best of its
 * sectors (the circuit's, or the session's). Only laps that count for best
 * stand in it, so an incomplete lap never does, nor a session kept out of
 * bests.
 * @param {BestRow[]} bests
 * @param {LapRow[]} rows
 * @param {(r: Keepable) => boolean} keep
 * @param {Set<number>} excluded the sessions kept out of bests
 * @param {Map<string, Promise<SectorBests>>} asked the sectors asked for so far, by
 *   scope: the board of one showing asks each once, whatever the filters
 */
function drawBests(bests, rows, keep, excluded, asked) {
  const body = /** @type {HTMLElement} */ ($("bests").querySelector("tbody"));
  body.replaceChildren();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const named = bests.filter((b) => keep({ circuit: b.circuit, car_id: b.car_id }));
  /** @type {Map<string, LapRow>} */
  const unnamed = new Map();
  for (const r of rows) {
    if (r.circuit !== null || !r.counts_for_best || r.time_ms === null || !keep(r)) continue;
    if (excluded.has(r.session_id)) continue;
    const key = `${r.session_id}:${r.car_id}`;
    const have = unnamed.get(key);
    if (!have || r.time_ms < have.time_ms) unnamed.set(key, r);
  }
  /** @type {{ lap: number, cells: (string | Node)[], theoretical: HTMLElement }[]} */
  const lines = [];
  /** The cell of a theoretical best, filled when the sectors route answers. */
  const theoreticalOf = (/** @type {string} */ scope) => {
    const cell = el("td", { class: "theoretical" }, ["…"]);
    let sectors = asked.get(scope);
    if (sectors === undefined) {
      sectors = /** @type {Promise<SectorBests>} */ (api(`/api/analysis/sectors?${scope}`));
      asked.set(scope, sectors);
    }
    sectors
      .then((s) => cell.textContent = lapTime(s.theoretical_best_ms))
      .catch(() => cell.textContent = "—");
    return cell;
  };
  for (const b of named) {
    lines.push({
      lap: b.lap_id,
      theoretical: theoreticalOf(`track=${encodeURIComponent(b.track)}&car=${b.car_id}`),
      cells: [b.track, b.car_name, lapTime(b.time_ms), signed(b.gap_ms / 1000)],
    });
  }
  for (const r of unnamed.values()) {
    lines.push({
      lap: r.id,
      theoretical: theoreticalOf(`session=${r.session_id}&car=${r.car_id}`),
      cells: [`session ${r.session_id} (unnamed)`, r.car_name, lapTime(r.time_ms), "—"],
    });
  }
  page.bestLaps = lines.map((l) => l.lap);
  for (const l of lines) {
    const row = byId.get(l.lap);
    // The box leads, as in the session lists: on a phone the wide columns scroll, not the box.
    const tr = el("tr", { "data-lap": l.lap }, [
      el("td", {}, [pickBox(l.lap, row), ` #${l.lap}`]),
      ...l.cells.map((c) => el("td", {}, [c])),
      l.theoretical,
    ]);
    body.append(tr);
  }
  if (lines.length === 0) {
    body.append(el("tr", {}, [el("td", { colSpan: 6 }, ["No lap counts for best here yet."])]));
  }
}

/**
 * Every session holding a shown lap, newest first, with its laps.
 * @param {SessionRow[]} sessions
 * @param {LapRow[]} rows
 */
function drawSessions(sessions, rows) {
  const box = $("sessions");
  box.replaceChildren();
  /** @type {Map<number, LapRow[]>} */
  const bySession = new Map();
  for (const r of rows) {
    (bySession.get(r.session_id) ?? bySession.set(r.session_id, []).get(r.session_id))?.push(r);
  }
  for (const s of sessions) {
    const laps = bySession.get(s.id);
    if (!laps) continue;
    laps.sort((a, b) => a.number - b.number);
    const table = el("table", { class: "session-laps" }, [
      el("thead", {}, [el("tr", {}, ["", "lap", "time", "", ""].map((h) => el("th", {}, [h])))]),
    ]);
    const tbody = el("tbody");
    for (const r of laps) {
      const marks = [];
      if (!r.complete) {
        marks.push(
          el("b", { class: "incomplete", title: "packets were lost: never a best" }, [
            "incomplete",
          ]),
        );
      }
      if (r.time_ms !== null && r.time_ms === s.best_lap_time_ms && r.counts_for_best) {
        marks.push(el("b", { class: "best" }, ["session best"]));
      }
      if (r.imported) marks.push(el("span", { class: "tag" }, ["imported"]));
      tbody.append(el("tr", { "data-lap": r.id, class: r.complete ? "" : "incomplete" }, [
        el("td", {}, [pickBox(r.id, r)]),
        el("td", {}, [`L${r.number} #${r.id}`]),
        el("td", {}, [lapTime(r.time_ms)]),
        el("td", {}, marks),
        el("td", {}, [
          el("a", { href: `/api/laps/${r.id}/export.json`, download: "" }, ["JSON"]),
          " ",
          el("a", { href: `/api/laps/${r.id}/export.csv`, download: "" }, ["CSV"]),
        ]),
      ]));
    }
    table.append(tbody);
    const name = s.track_name || "unnamed circuit";
    box.append(el("section", { class: "session", "data-session": s.id }, [
      el("h3", {}, [
        `Session ${s.id} · ${name} · ${s.car_name} · ${
          s.started_at.slice(0, 16).replace("T", " ")
        }`,
        s.bests_excluded ? el("span", { class: "tag" }, [" kept out of bests"]) : "",
      ]),
      table,
    ]));
  }
  if (box.childElementCount === 0) box.append(el("p", {}, ["No laps match."]));
}

/**
 * A checkbox picking lap `id` for the comparison; every box of one lap agrees.
 * @param {number} id
 * @param {LapRow | undefined} row
 */
function pickBox(id, row) {
  const box = /** @type {HTMLInputElement} */ (el("input", {
    type: "checkbox",
    class: "pick",
    checked: picked.includes(id),
    title: row && !row.complete ? "incomplete lap (can be compared, never a best)" : "compare",
  }));
  box.dataset.pick = String(id);
  box.addEventListener("change", () => {
    const at = picked.indexOf(id);
    if (box.checked && at < 0) {
      if (picked.length >= MAX_PICK) {
        box.checked = false;
        $("message").textContent = `At most ${MAX_PICK} laps at once.`;
        return;
      }
      picked.push(id);
    } else if (!box.checked && at >= 0) picked.splice(at, 1);
    for (const other of document.querySelectorAll(`input[data-pick="${id}"]`)) {
      /** @type {HTMLInputElement} */ (other).checked = box.checked;
    }
    $("message").textContent = "";
    showPicks();
  });
  return box;
}

/** The picks in the header, and the compare button usable from two. */
function showPicks() {
  $("picked").textContent = picked.length ? `picked ${picked.map((p) => `#${p}`).join(" ")}` : "";
  /** @type {HTMLButtonElement} */ ($("compare")).disabled = picked.length < 2;
}

/**
 * Opens the comparison of the picked laps in place; the fastest complete one
 * is the reference. The click's time goes along, for the page's timings.
 * @param {import("./pages.js").ViewContext} view
 * @param {Event} e
 */
function openCompare(view, e) {
  if (picked.length < 2) return;
  const byId = page.known;
  const complete = picked.filter((id) => byId.get(id)?.complete && byId.get(id)?.time_ms !== null);
  const pool = complete.length ? complete : picked;
  const time = (/** @type {number} */ id) => byId.get(id)?.time_ms ?? Infinity;
  const ref = pool.reduce((a, b) => (time(b) < time(a) ? b : a));
  view.go(`/compare?laps=${picked.join(",")}&ref=${ref}`, performance.timeOrigin + e.timeStamp);
}
