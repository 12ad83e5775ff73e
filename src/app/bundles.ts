/**
 * Track bundle use cases: list, read, import and export. Both faces (HTTP
 * and the command line) call these; an import is validated in full and
 * merged in memory before anything is written, so a refused document leaves
 * the store exactly as it was.
 *
 * @module
 */
import { NotFound } from "../core/errors.ts";
import { merge, type MergeResult } from "../core/bundle/merge.ts";
import { canonicalBundle } from "../core/bundle/serialise.ts";
import { slugify } from "../core/bundle/slug.ts";
import { bundleSlug } from "./bundle_slug.ts";
import { type ImportStats, importStats } from "../core/bundle/stats.ts";
import type { BundleV4, Official } from "../core/bundle/types.ts";
import { upgradeImported } from "../core/bundle/upgrade.ts";
import { validateBundle, validateTrackOverride } from "../core/bundle/validate.ts";
import { listBundleHeads, readBundle, updateBundle } from "../storage/bundles.ts";
import type { App } from "./context.ts";
import { coverageFor, type ListCoverage } from "./geometry.ts";

/** One row of the bundle list. */
export interface BundleListItem {
  slug: string;
  track: string;
  /** Cells (border records). */
  edges: number;
  runs: number;
  /** Installations that contributed runs. */
  sources: number;
  updated_at: string;
  official: Official | null;
  /** Share of the circuit the survey covers (from the compiled geometry); null without cells. */
  coverage: ListCoverage | null;
}

/** What an import did (REFERENCE.md 1.9, with our `*_kept` flags). */
export interface BundleImportResult extends ImportStats {
  /** Where the bundle is stored. */
  slug: string;
  /** meta.track as stored: the override, else the document's own name. */
  track: string;
  /** The stored generation; compiled geometry is cached against it. */
  generation: number;
  /** Cells before the import (0 when the circuit was new). */
  edges_before: number;
  /** Cells after the import. */
  edges: number;
  /** Cells the import added; 0 on a repeated import. */
  added_edges: number;
  runs: number;
  source_runs: Record<string, number>;
  updated_at: string;
  official: Official | null;
}

/** Options of {@linkcode importBundle}. */
export interface ImportOptions {
  /** A name that replaces the document's `meta.track` (trimmed, cut to 80 characters). */
  track?: string;
}

/**
 * Every stored bundle, in slug order. Reads heads and the cached coverage of
 * each head's generation; compiles a bundle only when no compile of its
 * current generation is cached.
 */
export async function listBundles(app: App): Promise<BundleListItem[]> {
  const heads = await listBundleHeads(app.kv);
  const coverage = await Promise.all(heads.map((h) => coverageFor(app, h)));
  return heads.map((h, i) => ({
    slug: h.slug,
    track: h.track,
    edges: h.edges,
    runs: h.runs,
    sources: h.sources,
    updated_at: h.updated_at,
    official: h.official,
    coverage: coverage[i],
  }));
}

/**
 * The bundle stored under `slug`, re-validated on read (kinds re-resolved).
 *
 * @throws {BadRequest} for a non-canonical slug; {NotFound} when none is stored.
 */
export async function getBundle(app: App, slug: string): Promise<BundleV4> {
  const stored = await readBundle(app.kv, bundleSlug(slug));
  if (stored === null) throw new NotFound(`no bundle for this track: ${slug}`);
  return stored.doc;
}

/**
 * The bundle under `slug` as exported: a canonical version 4 document
 * (fixed key order, sorted maps), so equal bundles export equal bytes.
 *
 * @throws {BadRequest} for a non-canonical slug; {NotFound} when none is stored.
 */
export async function exportBundle(app: App, slug: string): Promise<BundleV4> {
  return canonicalBundle(await getBundle(app, slug));
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
export async function importBundle(
  app: App,
  json: unknown,
  opts: ImportOptions = {},
): Promise<BundleImportResult> {
  const track = opts.track === undefined ? undefined : validateTrackOverride(opts.track);
  const incoming = upgradeImported(validateBundle(json));
  const slug = slugify(track ?? incoming.meta.track);
  const now = app.now().toISOString();
  const { head, result } = await updateBundle<MergeResult>(app.kv, slug, (current) => {
    const merged = merge(current?.doc ?? null, incoming, { now, track });
    return { doc: merged.merged, result: merged };
  });
  const meta = result.merged.meta;
  app.bus.emit({ type: "bundle", slug, track: meta.track, reason: "import" });
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
