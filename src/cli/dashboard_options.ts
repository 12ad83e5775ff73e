/**
 * What `start` and `demo` hand their dashboard besides the app: the
 * notices (a new store, the store's space low or full, standing as long as
 * it lasts) and the live page's QR code. Both commands print these lines
 * before the dashboard takes the screen, which then covers them; so the
 * dashboard is given them too, the same way in both commands.
 *
 * @module
 */
import type { App } from "../app/create_app.ts";
import { type StoreHealthStatus, storeSentence } from "../app/store/store_health.ts";
import { isLoopback } from "../core/loopback.ts";
import { TuiNotices } from "../tui/notices.ts";
import { postHubMessages } from "../tui/hub_message_notice.ts";
import type { LivePageQr } from "../tui/qr_overlay.tsx";
import { qrLines } from "./qr_text.ts";

/** The topic of the store's standing notice (see TuiNotices). */
export const STORE_TOPIC = "store";

/**
 * Posts the store's health to the dashboard's notices: now when it is not
 * fine (unless `opts.now` is false: the caller printed it), then at each
 * change (a count changing within a state too, so `store full: N laps not
 * yet saved` follows N). A state that is not ok stands until the next
 * (low, full, read-only alike: each is true until it changes); back to ok,
 * the standing notice ends and a passing one says so. Returns the
 * unsubscribe.
 */
export function postStoreNotices(
  app: Pick<App, "storeHealth" | "bus">,
  notices: TuiNotices,
  opts: { now?: boolean } = {},
): () => void {
  const post = (s: StoreHealthStatus) => {
    if (s.state !== "ok") {
      return notices.post(storeSentence(s), { sticky: true, topic: STORE_TOPIC });
    }
    notices.clear(STORE_TOPIC);
    notices.post(storeSentence(s));
  };
  const health = app.storeHealth.status();
  if ((opts.now ?? true) && health.state !== "ok") post(health);
  return app.bus.subscribe((event) => {
    if (event.type === "store") post(event.status);
  });
}

/**
 * The dashboard's notices for a logger over `app`: `created` (the line
 * saying a new store was made, or null) and the store's health now, when
 * `now` (the dashboard will cover the printed lines; false when they stay
 * in sight), then every change of the store's health, and the team hub's
 * messages to the driver when the app has a hub (`--share-live`).
 */
export function dashboardNotices(
  app: Pick<App, "storeHealth" | "bus"> & Partial<Pick<App, "hub">>,
  opts: { created: string | null; now: boolean },
): TuiNotices {
  const notices = new TuiNotices();
  if (opts.created && opts.now) notices.post(opts.created);
  postStoreNotices(app, notices, { now: opts.now });
  if (app.hub) postHubMessages(app.hub.messages, notices);
  return notices;
}

/**
 * The QR code the dashboard shows for the live page at `url`, or undefined
 * when the page is on loopback (no other device can open it, and nothing
 * was printed). `open`: shown on start (with `--lan`), until dismissed.
 */
export function livePageQr(url: string, open: boolean): LivePageQr | undefined {
  if (isLoopback(new URL(url).hostname.replace(/^\[|\]$/g, ""))) return undefined;
  return { url, lines: qrLines(url), open };
}
