/**
 * The dashboard's views, in key order. A view to come (survey, tracks) is
 * one more entry here with its number key; the root, the header and the
 * help overlay pick it up from this list.
 *
 * @module
 */
import type { KeyHelp, ViewDef } from "./view_types.ts";
import { LiveView } from "./live_view.tsx";
import { SESSIONS_KEYS, SessionsView } from "./sessions_view.tsx";

/** The views available today. */
export const VIEWS: readonly ViewDef[] = [
  { key: "1", id: "live", title: "Live", keys: [], Component: LiveView },
  { key: "2", id: "sessions", title: "Sessions", keys: SESSIONS_KEYS, Component: SessionsView },
];

/** The keys the root answers to in every view (view numbers come from the views). */
export const GLOBAL_KEYS: readonly KeyHelp[] = [
  { key: "?", action: "show or hide this help (Esc hides it too)" },
  { key: "q", action: "quit (Ctrl+C too)" },
];
