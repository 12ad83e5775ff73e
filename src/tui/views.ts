/**
 * The dashboard's views, in key order. A new view is one more entry here
 * with its number key; the root, the header and the help overlay pick it up
 * from this list.
 *
 * @module
 */
import type { KeyHelp, ViewDef } from "./view_types.ts";
import { LiveView } from "./live_view.tsx";
import { SESSIONS_KEYS, SessionsView } from "./sessions_view.tsx";
import { SURVEY_KEYS, SurveyView } from "./survey_view.tsx";
import { TRACKS_KEYS, TracksView } from "./tracks_view.tsx";
import { ANALYSIS_KEYS, AnalysisView } from "./analysis_view.tsx";
import { BESTS_KEYS, BestsView } from "./bests_view.tsx";

/** Every view. */
export const VIEWS: readonly ViewDef[] = [
  { key: "1", id: "live", title: "Live", keys: [], Component: LiveView },
  { key: "2", id: "sessions", title: "Sessions", keys: SESSIONS_KEYS, Component: SessionsView },
  { key: "3", id: "survey", title: "Survey", keys: SURVEY_KEYS, Component: SurveyView },
  { key: "4", id: "tracks", title: "Tracks", keys: TRACKS_KEYS, Component: TracksView },
  { key: "5", id: "analysis", title: "Analysis", keys: ANALYSIS_KEYS, Component: AnalysisView },
  { key: "6", id: "bests", title: "Bests", keys: BESTS_KEYS, Component: BestsView },
];

/** The keys the root answers to in every view (view numbers come from the views). */
export const GLOBAL_KEYS: readonly KeyHelp[] = [
  { key: "?", action: "show or hide this help (Esc hides it too)" },
  { key: "q", action: "quit (Ctrl+C too)" },
];
