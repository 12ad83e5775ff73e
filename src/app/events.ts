/**
 * Everything the application announces on its bus, in one leaf module that
 * imports only types: services, faces and tests name events from here.
 *
 * @module
 */
import type { CoachingNotes } from "../core/analysis/coaching_notes.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import type { SurveyStatus } from "./survey_status.ts";
import type { StoreHealthStatus, StoreState } from "./store_status.ts";

/** Everything the application announces. */
export type AppEvent =
  | { type: "session"; session: Session | null; reason: string }
  | { type: "lap"; lap: LapSummary; session: Session }
  | {
    type: "notes";
    /** The noted lap's session and number (its lap counter). */
    session_id: number;
    lap_number: number;
    notes: CoachingNotes;
  }
  | {
    type: "bundle";
    slug: string;
    track: string;
    /** What changed it: an import (merge), a rename (merge into the new slug), a delete, a survey save, an edit of corners/sections, or the official match. */
    reason: "import" | "rename" | "delete" | "survey" | "authoring" | "official";
  }
  | {
    type: "survey";
    /** What happened: a start, stop, circuit label, mark, changed coverage, or a save. */
    reason: "start" | "stop" | "track" | "mark" | "coverage" | "save";
    status: SurveyStatus;
  }
  | {
    type: "store";
    /** What changed: the `state`, or only the `counts` (laps waiting or dropped) or whether it is writable. */
    reason: "state" | "counts";
    /** The state before this change (the same as `status.state` when only a count changed). */
    previous: StoreState;
    status: StoreHealthStatus;
  };

/** A subscriber. */
export type Listener = (event: AppEvent) => void;
