/**
 * The team hub's messages to the driver on the dashboard's notice line
 * (issue #40): each stands there, in its own topic beside the store's,
 * for as long as the live frames carry it, then goes.
 *
 * @module
 */
import { type HubMessages, MESSAGE_SHOWN_MS } from "../app/hub_link/hub_messages.ts";
import type { LiveMessage } from "../core/hub/live_message.ts";
import type { TuiNotices } from "./notices.ts";

/** The topic of the hub message's standing notice (see TuiNotices). */
export const HUB_MESSAGE_TOPIC = "hub message";

/** A message as the notice line says it: who sent it, then the text. */
export function hubMessageLine(message: LiveMessage): string {
  return `✉ ${message.from}: ${message.text}`;
}

/**
 * Posts every message `messages` takes from now on as a standing notice
 * that a newer one replaces and that ends after MESSAGE_SHOWN_MS (`after`
 * is the timer, faked in tests). Returns what stops it (and ends a shown one).
 */
export function postHubMessages(
  messages: Pick<HubMessages, "onMessage">,
  notices: TuiNotices,
  after: (ms: number, fn: () => void) => () => void = realAfter,
): () => void {
  let cancel: (() => void) | null = null;
  const off = messages.onMessage((message) => {
    cancel?.();
    notices.post(hubMessageLine(message), { sticky: true, topic: HUB_MESSAGE_TOPIC });
    cancel = after(MESSAGE_SHOWN_MS, () => {
      cancel = null;
      notices.clear(HUB_MESSAGE_TOPIC);
    });
  });
  return () => {
    off();
    cancel?.();
    notices.clear(HUB_MESSAGE_TOPIC);
  };
}

function realAfter(ms: number, fn: () => void): () => void {
  const id = setTimeout(fn, ms);
  return () => clearTimeout(id);
}
