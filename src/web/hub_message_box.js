// @ts-check
/// <reference lib="dom" />
/**
 * The live page's line for the team hub's message to the driver (issue
 * #40), under the header; the rules it follows are in hub_message.js.
 *
 * @module
 */
import { messageLine, messageSpeech } from "./hub_message.js";

/** @typedef {import("./api_types.js").LiveFrame} LiveFrame */

let lastSaid = 0;

/**
 * Shows frame `f`'s message under the header (the line is made on first
 * use) and hands a new one to `say` when given (the voice is on); a
 * message met while the voice is off is not said later.
 * @param {LiveFrame} f
 * @param {((words: string) => void) | null} say
 */
export function showMessage(f, say) {
  const line = messageLine(f.message);
  let el = document.getElementById("hub-message");
  if (el === null && line === null) return;
  if (el === null) {
    el = document.createElement("div");
    el.id = "hub-message";
    el.setAttribute("role", "alert");
    document.getElementById("top")?.after(el);
  }
  if (el.hidden !== (line === null)) el.hidden = line === null;
  if (el.textContent !== (line ?? "")) el.textContent = line ?? "";
  const words = messageSpeech(f.message, lastSaid);
  if (f.message) lastSaid = Math.max(lastSaid, f.message.id);
  if (words !== null && say) say(words);
}
