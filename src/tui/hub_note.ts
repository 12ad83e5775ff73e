/**
 * The team hub in a few characters, for the dashboard's link line and the
 * plain status line: `hub ✓ 3↑` (all sent, 3 since start), `hub ↑ 2
 * waiting` (sending), `hub ✗ 12 waiting` (the hub down or the machine
 * offline: tried again later), `hub ✗ token` (the hub refused the token:
 * nothing goes until a restart). Pure.
 *
 * @module
 */
import type { HubStatus } from "../app/hub_link/hub_status.ts";

/** What the link line says of the hub. */
export interface HubNote {
  text: string;
  /** True when something is wrong: the part outlasts the figures on a narrow line. */
  trouble: boolean;
}

/** The note for `status`, or null without a hub. */
export function hubNote(status: HubStatus | null): HubNote | null {
  if (status === null) return null;
  const parked = status.parked > 0 ? ` ${status.parked} parked` : "";
  if (status.state === "stopped") {
    return { text: `hub ✗ token, ${status.waiting} waiting`, trouble: true };
  }
  if (status.state === "backoff") {
    return { text: `hub ✗ ${status.waiting} waiting${parked}`, trouble: true };
  }
  if (status.waiting > 0) {
    return { text: `hub ↑ ${status.waiting} waiting${parked}`, trouble: parked !== "" };
  }
  return { text: `hub ✓ ${status.sent}↑${parked}`, trouble: parked !== "" };
}
