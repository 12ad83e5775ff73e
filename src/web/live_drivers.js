// @ts-check
/**
 * /live on the hub (#40): the drivers on track now (GET /api/live, asked
 * again every 2 s), each a link to its engineer's page.
 *
 * @module
 */
import { hubFetch } from "./hub_token.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

async function refresh() {
  try {
    const { drivers } = await hubFetch("/api/live");
    const rows = drivers.map((/** @type {any} */ d) => {
      const tr = document.createElement("tr");
      const link = document.createElement("a");
      link.href = `/live/${encodeURIComponent(d.driver)}`;
      link.textContent = d.driver;
      const cells = [
        d.track_name ?? d.circuit ?? "-",
        d.car_id ?? "-",
        d.lap ?? "-",
        d.last_frame_at,
      ];
      tr.append(
        document.createElement("td"),
        ...cells.map((c) => {
          const td = document.createElement("td");
          td.textContent = String(c);
          return td;
        }),
      );
      /** @type {HTMLElement} */ (tr.firstChild).append(link);
      return tr;
    });
    $("drivers").querySelector("tbody")?.replaceChildren(...rows);
    $("state").textContent = drivers.length ? `${drivers.length} on track` : "no one on track";
    $("state").className = "state ok";
  } catch (err) {
    $("state").textContent = String(err instanceof Error ? err.message : err);
    $("state").className = "state warn";
  }
}

refresh();
setInterval(refresh, 2000);
