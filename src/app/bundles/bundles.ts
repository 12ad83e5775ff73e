/**
 * The track bundle service: list, read, import and export, and (through
 * bundle_authoring.ts and official.ts) the edits a human makes. Every face
 * calls these; an import is validated in full and merged in memory before
 * anything is written, so a refused document leaves the store exactly as it
 * was.
 *
 * @module
 */
import { bundleCleanupWarnings } from "../log.ts";
import { NotFound, StoredUnreadable } from "../../core/errors.ts";
import type { BundleMarks } from "../../core/analysis/sector_plan.ts";
import { readBundleBytes } from "../../core/bundle/bundle_bytes.ts";
import type { BundleTable } from "../../core/bundle/edge_table.ts";
import { mergeTables, type TableMergeResult } from "../../core/bundle/merge.ts";
import { jsonBody } from "../../core/json_body.ts";
import { canonicalBundle } from "../../core/bundle/serialise.ts";
import { slugify } from "../../core/bundle/slug.ts";
import { bundleSlug } from "./bundle_slug.ts";
import { importStats } from "../../core/bundle/stats.ts";
import type { BundleV4 } from "../../core/bundle/types.ts";
import { tableBundleOf } from "../../core/bundle/table_convert.ts";
import { upgradeImported } from "../../core/bundle/upgrade.ts";
import { validateBundleTable, validateTrackOverride } from "../../core/bundle/validate.ts";
import {
  readBundle,
  readBundleTable,
  scanBundleHeads,
  type UnreadableRecord,
  updateBundle,
} from "../../storage/bundles.ts";
import {
  BundleAuthoring,
  type CornersBody,
  type CornersDoc,
  type RenameBody,
  type RenameResult,
  type SectionsBody,
  type SectionsDoc,
} from "./bundle_authoring.ts";
import type { AppDeps } from "../deps.ts";
import type { GeometryService } from "./geometry.ts";
import type { BundleImportResult, BundleListItem } from "./bundle_answers.ts";
import {
  type OfficialBody,
  type OfficialConfirmation,
  OfficialMatch,
  type OfficialSuggestionResult,
} from "./official.ts";
import type { SurveyService } from "../survey/survey.ts";

/** What a released body is replaced with. */
const EMPTY = new Uint8Array(0);

export type { BundleImportResult, BundleListItem } from "./bundle_answers.ts";
export type { UnreadableRecord } from "../../storage/bundles.ts";

/** Options of {@linkcode BundleService.import}. */
export interface ImportOptions {
  /** A name that replaces the document's `meta.track` (trimmed; the one circuit-name rule). */
  track?: string;
}

/** What the bundle service calls on the other services. */
export interface BundleServices {
  /** The coverage of each listed bundle; imports wait for {@linkcode GeometryService.rebuilt}. */
  geometry: Pick<GeometryService, "coverage" | "rebuilt">;
  /** Edits refuse a bundle a running survey saves to. */
  survey: Pick<SurveyService, "slug">;
}

/** The stored track bundles. */
export class BundleService {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;
  readonly #geometry: BundleServices["geometry"];
  readonly #authoring: BundleAuthoring;
  readonly #official: OfficialMatch;

  /** Bundles in `deps.kv`; every change is announced on `deps.bus`. */
  constructor(deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">, services: BundleServices) {
    this.#deps = deps;
    this.#geometry = services.geometry;
    this.#authoring = new BundleAuthoring(deps, services.survey);
    this.#official = new OfficialMatch(deps);
  }

  /**
   * Every stored bundle, in slug order. Reads heads and the cached coverage
   * of each head's generation; compiles a bundle only when no compile of its
   * current generation is cached.
   */
  async list(): Promise<BundleListItem[]> {
    return (await this.listing()).bundles;
  }

  /**
   * {@linkcode list}, and the stored bundles it left out because they cannot
   * be read (a damaged head or document, or a track name a release before
   * the rule let in), each with why. One unreadable bundle never hides the
   * others; each is reported to the log as a warning too.
   */
  async listing(): Promise<{ bundles: BundleListItem[]; unreadable: UnreadableRecord[] }> {
    const { heads, unreadable } = await scanBundleHeads(this.#deps.kv);
    const rows = await Promise.all(heads.map(async (h) => {
      try {
        return await this.#geometry.coverage(h);
      } catch (err) {
        if (!(err instanceof StoredUnreadable)) throw err;
        unreadable.push({ slug: h.slug, reason: err.message });
        return undefined;
      }
    }));
    const bundles: BundleListItem[] = [];
    heads.forEach((h, i) => {
      const coverage = rows[i];
      if (coverage === undefined) return;
      bundles.push({
        slug: h.slug,
        track: h.track,
        edges: h.edges,
        runs: h.runs,
        sources: h.sources,
        updated_at: h.updated_at,
        official: h.official,
        coverage,
      });
    });
    unreadable.sort((a, b) => a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
    for (const u of unreadable) {
      this.#deps.log.warn(`bundle "${u.slug}" left out of the list: ${u.reason}`);
    }
    return { bundles, unreadable };
  }

  /**
   * The bundle stored under `slug`, re-validated on read (kinds re-resolved).
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when none is stored.
   */
  async get(slug: string): Promise<BundleV4> {
    const stored = await readBundle(this.#deps.kv, bundleSlug(slug));
    if (stored === null) throw new NotFound(`no bundle for this track: ${slug}`);
    return stored.doc;
  }

  /**
   * The authored corners and sections of circuit `slug`'s bundle, for the
   * analysis engine; null when `slug` is null or no bundle is stored.
   *
   * @throws {BadRequest} for a non-canonical slug.
   */
  async marks(slug: string | null): Promise<BundleMarks | null> {
    if (slug === null) return null;
    const stored = await readBundleTable(this.#deps.kv, bundleSlug(slug));
    return stored && {
      corners: stored.bundle.corners,
      sections: stored.bundle.sections,
      official: stored.bundle.meta.official,
    };
  }

  /**
   * The bundle under `slug` as exported: a canonical version 4 document
   * (fixed key order, sorted maps), so equal bundles export equal bytes.
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when none is stored.
   */
  async export(slug: string): Promise<BundleV4> {
    return canonicalBundle(await this.get(slug));
  }

  /**
   * Imports a parsed JSON bundle of any version from 1 to 4: validates it
   * (rejecting the whole document with a JSON path per failure), upgrades it
   * (v1-v3 votes go to a synthetic source derived from the document), merges
   * it into the stored bundle of its circuit and stores the result in one
   * atomic flip. Concurrent imports of one circuit serialise. Repeating an
   * import changes nothing but `updated_at`. Announces `{type: "bundle"}`.
   *
   * @throws {ImportRejected} (400) when the document breaks any rule, or when
   *   the merged bundle would exceed 50,000 edges; nothing is written then.
   * @throws {BadRequest} when `opts.track` is blank.
   */
  async import(json: unknown, opts: ImportOptions = {}): Promise<BundleImportResult> {
    const track = opts.track === undefined ? undefined : validateTrackOverride(opts.track);
    const validated = validateBundleTable(json);
    // The parsed body (tens of MB for a big bundle) is not needed past here;
    // an async function would otherwise keep its parameter alive to the end.
    json = undefined;
    // v1 to v3 are rare and small: they are upgraded as objects, then tabled.
    const incoming = validated.version === 4
      ? validated
      : tableBundleOf(upgradeImported(validated));
    return await this.#importTable(incoming, track);
  }

  /**
   * {@linkcode import} of the UTF-8 JSON text in `bytes` (a request body):
   * the same result and the same refusals, but a well-formed v4 bundle is
   * read from the bytes straight into a table, never parsed into an object
   * per edge (13 MB of JSON is half a million objects). Anything that reader
   * does not take is parsed and imported as {@linkcode import} does, which
   * reports every failure.
   *
   * Every face imports a bundle this way: the HTTP body, the command
   * line's `import FILE` and the dashboard's bundle import. `parse` is how
   * the declined bytes become JSON (a request body's by default; a file
   * names itself in its errors).
   *
   * @throws {BadRequest} for text that is not UTF-8 or not JSON, or a blank
   *   `opts.track` (or whatever `parse` throws); {ImportRejected} as
   *   {@linkcode import} does.
   */
  async importBytes(
    bytes: Uint8Array,
    opts: ImportOptions = {},
    parse: (bytes: Uint8Array) => unknown = jsonBody,
  ): Promise<BundleImportResult> {
    const table = readBundleBytes(bytes);
    if (table === null) {
      // Parsed, then imported as `import` does: the same refusals in the same order. Neither
      // the bytes nor the parsed document are held through the merge (as in `import`).
      let json: unknown = parse(bytes);
      bytes = EMPTY;
      const imported = this.import(json, opts);
      json = undefined;
      return await imported;
    }
    bytes = EMPTY;
    const track = opts.track === undefined ? undefined : validateTrackOverride(opts.track);
    return await this.#importTable(table, track);
  }

  async #importTable(
    incoming: BundleTable,
    track: string | undefined,
  ): Promise<BundleImportResult> {
    // A geometry rebuild still under way from an earlier change (the previous of
    // back-to-back imports) finishes first: its compile, and the memory it and that
    // change leave behind, then never add to this merge's peak (a logger tidies then).
    await this.#geometry.rebuilt();
    const slug = slugify(track ?? incoming.meta.track);
    const now = this.#deps.now().toISOString();
    const { head, result } = await updateBundle<TableMergeResult>(
      this.#deps.kv,
      slug,
      (current) => {
        const merged = mergeTables(current?.bundle ?? null, incoming, { now, track });
        return { bundle: merged.merged, result: merged };
      },
      bundleCleanupWarnings(this.#deps.log),
    );
    const meta = result.merged.meta;
    this.#deps.bus.emit({ type: "bundle", slug, track: meta.track, reason: "import" });
    return {
      slug,
      track: meta.track,
      generation: head.generation,
      edges_before: result.report.edgesBefore,
      edges: result.report.edgesAfter,
      added_edges: result.report.addedEdges,
      runs: meta.runs,
      source_runs: meta.source_runs,
      updated_at: meta.updated_at,
      official: meta.official,
      ...importStats(result),
    };
  }

  /** The corners of bundle `slug`; see {@linkcode BundleAuthoring.corners}. */
  corners(slug: string): Promise<CornersDoc> {
    return this.#authoring.corners(slug);
  }

  /** Replaces the corners of bundle `slug`; see {@linkcode BundleAuthoring.putCorners}. */
  putCorners(slug: string, body: CornersBody): Promise<CornersDoc> {
    return this.#authoring.putCorners(slug, body);
  }

  /** The sections of bundle `slug`; see {@linkcode BundleAuthoring.sections}. */
  sections(slug: string): Promise<SectionsDoc> {
    return this.#authoring.sections(slug);
  }

  /** Replaces the sections of bundle `slug`; see {@linkcode BundleAuthoring.putSections}. */
  putSections(slug: string, body: SectionsBody): Promise<SectionsDoc> {
    return this.#authoring.putSections(slug, body);
  }

  /** Renames (or merges) bundle `slug`; see {@linkcode BundleAuthoring.rename}. */
  rename(slug: string, body: RenameBody): Promise<RenameResult> {
    return this.#authoring.rename(slug, body);
  }

  /** Deletes bundle `slug`; see {@linkcode BundleAuthoring.delete}. */
  delete(slug: string): Promise<{ status: "deleted"; slug: string }> {
    return this.#authoring.delete(slug);
  }

  /** The catalogue's suggestion for bundle `slug`; see {@linkcode OfficialMatch.suggestion}. */
  officialSuggestion(slug: string): Promise<OfficialSuggestionResult> {
    return this.#official.suggestion(slug);
  }

  /** Stores a human's official match for bundle `slug`; see {@linkcode OfficialMatch.confirm}. */
  confirmOfficial(slug: string, body: OfficialBody): Promise<OfficialConfirmation> {
    return this.#official.confirm(slug, body);
  }
}
