// @ts-check
/**
 * The analysis pages' router. `/laps` and `/compare` are one document
 * (pages.html) holding both pages; this module shows the one the address
 * names and, when a link or the laps page's Compare button goes to the
 * other, changes the address (history.pushState) and draws it in place.
 * A comparison thus opens without loading a page: the scripts, the chart
 * library and the style are already there, and the click's time is known,
 * so the compare page can tell how long its charts took from it
 * (docs/analysis_pages.md). Back and forward redraw the page of the address.
 * An address typed, bookmarked or shared loads the document, which shows
 * the page it names: the deep links are unchanged.
 *
 * While a page draws, `<body>` has no `data-ready`; once drawn it is "true"
 * ("message" when the page only shows a message, "error" when it failed).
 *
 * @module
 */
import { showCompare } from "./compare.js";
import { showLaps } from "./laps.js";
import { $ } from "./shared_api.js";

/**
 * What the router gives the page it shows.
 * @typedef {{
 *   signal: AbortSignal,
 *   clickedAt: number | null,
 *   go: (url: string, clickedAt?: number | null) => void,
 * }} ViewContext
 * `signal` aborts when another page is shown (its listeners go with it);
 * `clickedAt` is the epoch time in ms (performance.timeOrigin based) of the
 * click that opened the page in place, null when the document loaded it;
 * `go` shows another address of these pages in place.
 */

/** @type {Record<string, { id: string, show: (ctx: ViewContext) => Promise<string> }>} */
const VIEWS = {
  "/laps": { id: "laps-view", show: showLaps },
  "/compare": { id: "compare-view", show: showCompare },
};

/** Aborts the page shown now, when another is shown. */
let shown = new AbortController();

/**
 * Shows the page of the current address. `moved`: drawn in place of
 * another (a click, Back or Forward), so the keyboard's focus, which was
 * on something now hidden, goes to the new page's heading, where a screen
 * reader announces it.
 * @param {number | null} clickedAt
 * @param {boolean} moved
 */
function render(clickedAt, moved) {
  shown.abort();
  const mine = new AbortController();
  shown = mine;
  const view = VIEWS[location.pathname] ?? VIEWS["/laps"];
  delete document.body.dataset.ready;
  for (const v of Object.values(VIEWS)) $(v.id).hidden = v !== view;
  const message = $("message");
  message.textContent = "";
  $(view.id).querySelector(".top")?.after(message);
  if (moved) /** @type {HTMLElement | null} */ ($(view.id).querySelector("h1"))?.focus();
  view.show({ signal: mine.signal, clickedAt, go }).then(
    (state) => {
      if (!mine.signal.aborted) document.body.dataset.ready = state;
    },
    (err) => {
      if (mine.signal.aborted) return;
      message.textContent = String(err?.message ?? err);
      document.body.dataset.ready = "error";
    },
  );
}

/**
 * Goes to `url` (a path of these pages with its query) in place, as a new
 * history entry.
 * @param {string} url
 * @param {number | null} [clickedAt]
 */
function go(url, clickedAt = null) {
  history.pushState(null, "", url);
  scrollTo(0, 0);
  render(clickedAt, true);
}

addEventListener("popstate", () => render(null, true));

// A plain click on a link to one of these pages goes in place; a click with
// a modifier (a new tab or window), a download or another target is the
// browser's.
document.addEventListener("click", (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) {
    return;
  }
  const a = /** @type {HTMLAnchorElement | null} */ (
    /** @type {Element} */ (e.target).closest?.("a") ?? null
  );
  if (!a || a.hasAttribute("download") || (a.target !== "" && a.target !== "_self")) return;
  const to = new URL(a.href, location.href);
  if (to.origin !== location.origin || !(to.pathname in VIEWS)) return;
  e.preventDefault();
  go(`${to.pathname}${to.search}`, performance.timeOrigin + e.timeStamp);
});

render(null, false);
