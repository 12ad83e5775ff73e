// @ts-check
/**
 * The laps page on the team hub (`/laps?track=SLUG&car=ID&driver=NAME`):
 * the team's laps, newest first, in one table with a Driver column,
 * filtered by circuit, car and driver (each filter asked of the hub's
 * `/api/laps`, so older laps of a circuit, car or driver still show). The
 * hub keeps no sessions, so there are no session lists and no bests board
 * here (the hub's leaderboard is its own route). The picker is the laps
 * page's (laps.js), so picking and opening a comparison work as on the
 * logger. Shown by laps.js when `/api/laps` answered the hub's shape.
 *
 * @module
 */
import { $, api, el, lapTime } from "./shared_api.js";
import { listedRows } from "./team_rows.js";

/**
 * @typedef {import("./team_rows.js").ShownRow} ShownRow
 * @typedef {{
 *   box: (id: number, row: ShownRow | undefined) => HTMLElement,
 *   known: Map<number, ShownRow>, limit: number, drawn: () => void,
 * }} Picker
 * What laps.js lends: a lap's pick box, the rows seen by id (what the
 * Compare button looks laps up in), the listing's limit, and a count of
 * drawings for the tests.
 */

/**
 * Draws the team's laps from `first` (the unfiltered listing), with filters.
 * Listeners go with `view.signal`.
 * @param {import("./pages.js").ViewContext} view
 * @param {ShownRow[]} first
 * @param {Picker} picker
 * @returns {Promise<void>} once the first drawing is done
 */
export async function showTeamLaps(view, first, picker) {
  $("bests-box").hidden = true;
  $("driver-filter").hidden = false;
  const sels = {
    track: /** @type {HTMLSelectElement} */ ($("filter-circuit")),
    car: /** @type {HTMLSelectElement} */ ($("filter-car")),
    driver: /** @type {HTMLSelectElement} */ ($("filter-driver")),
  };
  fillSelect(sels.track, first.filter((r) => r.circuit).map((r) => [r.circuit ?? "", r.track]));
  fillSelect(sels.car, first.map((r) => [String(r.car_id), r.car_name]));
  fillSelect(sels.driver, first.map((r) => [r.driver ?? "", r.driver ?? ""]));
  const q = new URLSearchParams(location.search);
  for (const [key, sel] of Object.entries(sels)) sel.value = q.get(key) ?? "";
  let latest = 0;
  const draw = async () => {
    const mine = ++latest;
    const wanted = new URLSearchParams();
    for (const [key, sel] of Object.entries(sels)) if (sel.value) wanted.set(key, sel.value);
    history.replaceState(null, "", wanted.size ? `/laps?${wanted}` : "/laps");
    let rows = first;
    if (wanted.size) {
      const p = new URLSearchParams({ limit: String(picker.limit) });
      if (sels.track.value) p.set("circuit", sels.track.value);
      if (sels.car.value) p.set("car", sels.car.value);
      if (sels.driver.value) p.set("driver", sels.driver.value);
      rows = listedRows(await api(`/api/laps?${p}`)).rows;
    }
    if (mine !== latest || view.signal.aborted) return;
    for (const r of rows) picker.known.set(r.id, r);
    drawTable(rows, picker);
    $("sessions-note").textContent = rows.length < picker.limit
      ? ""
      : `The latest ${
        picker.limit.toLocaleString("en")
      } laps are listed: filter to reach older ones.`;
    picker.drawn();
  };
  const redraw = () => {
    draw().catch((err) => $("message").textContent = String(err?.message ?? err));
  };
  for (const sel of Object.values(sels)) {
    sel.addEventListener("change", redraw, { signal: view.signal });
  }
  await draw();
}

/**
 * `sel`'s options: "all", then each distinct value of `pairs` by its label.
 * @param {HTMLSelectElement} sel
 * @param {[string, string][]} pairs value and label
 */
function fillSelect(sel, pairs) {
  sel.replaceChildren(el("option", { value: "" }, ["all"]));
  const seen = new Map(pairs.filter(([v]) => v !== ""));
  for (const [value, label] of [...seen].sort((a, b) => a[1].localeCompare(b[1]))) {
    sel.append(el("option", { value }, [label]));
  }
}

/**
 * The laps in one table, as listed (newest first).
 * @param {ShownRow[]} rows
 * @param {Picker} picker
 */
function drawTable(rows, picker) {
  const box = $("sessions");
  box.replaceChildren();
  if (rows.length === 0) {
    box.append(el("p", {}, ["No laps match."]));
    return;
  }
  const heads = ["", "Driver", "circuit", "car", "time", "finished", ""];
  const tbody = el("tbody");
  for (const r of rows) {
    const marks = r.complete ? [] : [
      el("b", { class: "incomplete", title: "packets were lost: never a best" }, ["incomplete"]),
    ];
    tbody.append(el("tr", { "data-lap": r.id, class: r.complete ? "" : "incomplete" }, [
      el("td", {}, [picker.box(r.id, r), ` #${r.id}`]),
      el("td", { class: "driver" }, [r.driver ?? ""]),
      el("td", {}, [r.track || "unnamed"]),
      el("td", {}, [r.car_name]),
      el("td", {}, [lapTime(r.time_ms || null), " ", ...marks]),
      el("td", {}, [r.finished_at.slice(0, 16).replace("T", " ")]),
      el("td", {}, [el("a", { href: `/api/laps/${r.id}/export.json`, download: "" }, ["JSON"])]),
    ]));
  }
  // In a session's box, which scrolls a table wider than a phone: the page never scrolls sideways.
  box.append(el("section", { class: "session team" }, [
    el("table", { class: "session-laps" }, [
      el("thead", {}, [el("tr", {}, heads.map((h) => el("th", {}, [h])))]),
      tbody,
    ]),
  ]));
}
