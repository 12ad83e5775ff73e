// @ts-check
/**
 * The API's answers as the pages read them: the output types of the zod
 * schemas the server validates and documents its answers with, imported as
 * types only (the browser never loads them; `deno check` reads them). A
 * field the server renames or drops fails the type check of the page that
 * reads it, not a driver's evening.
 *
 * @module
 */

/**
 * @typedef {import("../core/analysis/analysis_schemas.ts").Comparison} Comparison
 * The body of `/api/analysis/compare`.
 * @typedef {import("../core/analysis/analysis_schemas.ts").ComparedLapResult} ComparedLap
 * One lap of a {@linkcode Comparison}.
 * @typedef {import("../core/analysis/analysis_schemas.ts").CornerReport} CornerReport
 * The body of `/api/analysis/corners`.
 * @typedef {import("../core/analysis/analysis_schemas.ts").CornerReportRow} CornerReportRow
 * One corner of a {@linkcode CornerReport}.
 * @typedef {import("../core/analysis/analysis_schemas.ts").SectorBests} SectorBests
 * The body of `/api/analysis/sectors`.
 * @typedef {import("../core/analysis/analysis_schemas.ts").Consistency} Consistency
 * The body of `/api/analysis/consistency`.
 * @typedef {import("../app/laps/lap_listing.ts").LapListItem} LapRow
 * One lap of `/api/laps`.
 * @typedef {import("../app/hub/hub_analysis_source.ts").HubLapRow} TeamLapRow
 * One lap of the team hub's `/api/laps` (`{laps: [...]}`).
 * @typedef {import("../app/laps/lap_listing.ts").BestItem} BestRow
 * One row of `/api/laps/bests`.
 * @typedef {import("../core/laps/session.ts").Session} SessionRow
 * One session of `/api/sessions`.
 * @typedef {import("../app/bundles/bundles.ts").BundleListItem} BundleRow
 * One bundle of `/api/track-bundles`.
 * @typedef {import("../app/live/live_frame.ts").LiveFrame} LiveFrame
 * One `frame` event of `/api/live`.
 * @typedef {Extract<import("../app/events.ts").AppEvent, { type: "lap" }>} LapEvent
 * One `lap` event of `/api/live`.
 * @typedef {import("../core/geometry/types.ts").CompiledTrack} CompiledTrack
 * The body of `/api/track-bundles/{slug}/compiled`.
 */

export {};
