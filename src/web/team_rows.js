// @ts-check
/**
 * The rows of `/api/laps` as the pages read them, from the logger or from
 * the team hub. The logger answers a list of its rows; the hub answers
 * `{laps: [...]}` whose rows name the driver and the circuit's slug and
 * name, but no session, lap number or car name (its laps are kept without
 * their sessions). The hub's rows are made into the logger's shape (each
 * lap its own session, as an imported lap is) with `driver` kept, so every
 * drawing reads one shape and shows the driver only where a row has one.
 *
 * @module
 */

/**
 * @typedef {import("./api_types.js").LapRow} LapRow
 * @typedef {import("./api_types.js").TeamLapRow} TeamLapRow
 * @typedef {LapRow & { driver?: string }} ShownRow
 * A lap row as the pages draw it: the logger's, with `driver` on the hub.
 */

/**
 * The rows of an answer of `/api/laps`, and whether it was the hub's.
 * @param {unknown} answer
 * @returns {{ rows: ShownRow[], team: boolean }}
 */
export function listedRows(answer) {
  if (Array.isArray(answer)) return { rows: /** @type {LapRow[]} */ (answer), team: false };
  const laps = /** @type {{ laps: TeamLapRow[] }} */ (answer).laps;
  return { rows: laps.map(shownRow), team: true };
}

/**
 * A hub row in the logger's shape: its own session, no lap number, the car
 * by its id (the hub's rows carry no car name).
 * @param {TeamLapRow} r
 * @returns {ShownRow}
 */
function shownRow(r) {
  const time = r.time_ms ?? 0;
  return {
    id: r.id,
    session_id: r.id,
    number: 0,
    track: r.track_name,
    circuit: r.circuit || null,
    car_id: r.car_id,
    car_name: `car ${r.car_id}`,
    time_ms: time,
    complete: r.complete,
    counts_for_best: r.complete && time > 0,
    bests_excluded: false,
    imported: false,
    finished_at: r.finished_at,
    driver: r.driver,
  };
}
