// @ts-check
/**
 * The team hub's message to the driver on the live page (issue #40): the
 * frames carry it for about 30 s (`message`, see docs/api.md); the page
 * shows it on a line of its own under the header while they do, and says
 * it once when the page's voice is on. The rules, without the DOM, so
 * Deno tests import this file as the browser does; the DOM part is
 * hub_message_box.js.
 *
 * @module
 */

/** @typedef {import("./api_types.js").LiveFrame} LiveFrame */
/** @typedef {NonNullable<LiveFrame["message"]>} LiveMessage */

/**
 * The line the page shows for `message`, or null without one.
 * @param {LiveMessage | null | undefined} message
 * @returns {string | null}
 */
export function messageLine(message) {
  return message ? `✉ ${message.from}: ${message.text}` : null;
}

/**
 * What to say for `message` when it was not said yet (its id above
 * `lastSaid`): "Message from alice: Box this lap"; else null.
 * @param {LiveMessage | null | undefined} message
 * @param {number} lastSaid
 * @returns {string | null}
 */
export function messageSpeech(message, lastSaid) {
  if (!message || message.id <= lastSaid) return null;
  return `Message from ${message.from}: ${message.text}`;
}
