/**
 * The analysis pages' routes (issue 28, docs/analysis_pages.md) as
 * operations of the OpenAPI document: one per file of
 * {@linkcode PAGE_FILES}, so the document lists exactly what
 * src/server/routes/pages.ts serves.
 *
 * @module
 */
import { PAGE_FILES } from "../routes/pages.ts";
import { webFileMediaType } from "../routes/web_files.ts";
import type { Operation } from "./operation.ts";

/** What each page file is, for its summary. */
const SUMMARIES: Readonly<Record<string, string>> = {
  "/laps":
    "The laps page: sessions and laps, filters (?track=SLUG&car=ID), bests with theoretical best, lap picker",
  "/compare":
    "The compare page (?laps=ID,ID&ref=ID&vs=ID&map=speed&from=M&to=M, read by its script): charts, map, corners, sectors",
};

/**
 * GET of every analysis page file, tagged with the status routes as the live
 * page is; each answers the embedded text.
 */
export const PAGE_OPERATIONS: readonly Operation[] = Object.entries(PAGE_FILES).map((
  [path, name],
) => ({
  method: "get",
  path,
  tag: "status",
  summary: SUMMARIES[path] ?? `The analysis pages' ${name}`,
  ok: { type: webFileMediaType(name), description: "embedded in the binary" },
}));
