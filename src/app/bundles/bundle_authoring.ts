/**
 * Hand-authored parts of a bundle (SPEC.md 2.1.5-2.1.6) and whole-bundle
 * edits: corners and sections read and replaced, a circuit renamed (merged
 * into the bundle already stored under the new name, if any), a bundle
 * deleted. Survey saves never touch corners or sections; these use cases
 * are the only way to change them.
 *
 * @module
 */
import { bundleCleanupWarnings } from "../log.ts";
import { z } from "zod";
import { Conflict, NotFound } from "../../core/errors.ts";
import type { BundleTable } from "../../core/bundle/edge_table.ts";
import { mergeTables } from "../../core/bundle/merge.ts";
import { bundleV4Schema } from "../../core/bundle/schema.ts";
import { slugify } from "../../core/bundle/slug.ts";
import type { CornersDoc, RenameResult, SectionsDoc } from "./bundle_answers.ts";
import { authoredCorners, authoredSections } from "../../core/bundle/validate.ts";
import { type BundleHead, readBundleTable, updateBundle } from "../../storage/bundles.ts";
import { removeBundle } from "../../storage/bundle_removal.ts";
import { bundleSlug } from "./bundle_slug.ts";
import type { AppDeps } from "../deps.ts";
import { parseBody, trackLabelSchema } from "../request_body.ts";
import type { SurveyService } from "../survey/survey.ts";

export type { CornersDoc, RenameResult, SectionsDoc } from "./bundle_answers.ts";

/** The body of PUT .../corners (a bare array is wrapped first); also published as the API's. */
export const cornersSchema = z.object({
  corners: bundleV4Schema.shape.corners.unwrap().unwrap(),
}, { error: "body must be an object {corners: [...]} or an array of corners" });

/** The body of PUT .../sections (a bare array is wrapped first); also published as the API's. */
export const sectionsSchema = z.object({
  sections: bundleV4Schema.shape.sections.unwrap().unwrap(),
}, { error: "body must be an object {sections: [...]} or an array of sections" });

/** The body of a rename, PATCH /api/track-bundles/{slug}; also published as the API's. */
export const renameSchema = z.object({
  track: trackLabelSchema,
}, { error: "body must be an object {track}" });

/** A corners body as {@linkcode cornersSchema} parsed it. */
export type CornersBody = z.output<typeof cornersSchema>;

/** A sections body as {@linkcode sectionsSchema} parsed it. */
export type SectionsBody = z.output<typeof sectionsSchema>;

/** A rename body as {@linkcode renameSchema} parsed it: the name trimmed, held to its rule. */
export type RenameBody = z.output<typeof renameSchema>;

/**
 * `raw` (an array of corners, or an object {corners}) parsed by
 * {@linkcode cornersSchema}.
 *
 * @throws {BadRequest} "invalid corners: PATH: RULE" with a JSON path per fault.
 */
export function parseCornersBody(raw: unknown): CornersBody {
  return parseBody(cornersSchema, Array.isArray(raw) ? { corners: raw } : raw, "corners");
}

/**
 * `raw` (an array of sections, or an object {sections}) parsed by
 * {@linkcode sectionsSchema}.
 *
 * @throws {BadRequest} "invalid sections: PATH: RULE" with a JSON path per fault.
 */
export function parseSectionsBody(raw: unknown): SectionsBody {
  return parseBody(sectionsSchema, Array.isArray(raw) ? { sections: raw } : raw, "sections");
}

function notFound(slug: string): NotFound {
  return new NotFound(`no bundle for this track: ${slug}`);
}

/**
 * The hand-authored parts of stored bundles and whole-bundle edits. None of
 * them touches a bundle a survey is saving to.
 */
export class BundleAuthoring {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;
  readonly #survey: Pick<SurveyService, "slug">;

  /** Edits over `deps.kv`, refusing while `survey` saves to the bundle in question. */
  constructor(
    deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">,
    survey: Pick<SurveyService, "slug">,
  ) {
    this.#deps = deps;
    this.#survey = survey;
  }

  /**
   * The corners of the bundle under `slug`, numbered 1..N.
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when none is stored.
   */
  async corners(slug: string): Promise<CornersDoc> {
    const doc = await this.#stored(slug);
    return { slug, track: doc.meta.track, corners: doc.corners };
  }

  /**
   * The sections of the bundle under `slug`, numbered 1..N.
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when none is stored.
   */
  async sections(slug: string): Promise<SectionsDoc> {
    const doc = await this.#stored(slug);
    return { slug, track: doc.meta.track, sections: doc.sections };
  }

  /**
   * Replaces the corners of the bundle under `slug` with `body.corners`
   * (parsed by {@linkcode parseCornersBody}), validated as a whole and renumbered 1..N from list
   * order; a corner's own `n` is ignored. Nothing else in the bundle changes
   * but `updated_at`. Announces `{type: "bundle", reason: "authoring"}`.
   *
   * @throws {BadRequest} with a JSON path per fault; {NotFound} when no bundle is stored.
   */
  async putCorners(slug: string, body: CornersBody): Promise<CornersDoc> {
    bundleSlug(slug);
    const corners = authoredCorners(body.corners);
    const doc = await this.#replaceAuthored(slug, (d) => ({ ...d, corners }));
    return { slug, track: doc.meta.track, corners: doc.corners };
  }

  /**
   * Replaces the sections of the bundle under `slug`, like {@linkcode putCorners}.
   *
   * @throws {BadRequest} with a JSON path per fault; {NotFound} when no bundle is stored.
   */
  async putSections(slug: string, body: SectionsBody): Promise<SectionsDoc> {
    bundleSlug(slug);
    const sections = authoredSections(body.sections);
    const doc = await this.#replaceAuthored(slug, (d) => ({ ...d, sections }));
    return { slug, track: doc.meta.track, sections: doc.sections };
  }

  /**
   * Renames the circuit under `slug` to `body.track` (parsed by
   * {@linkcode renameSchema}). When the new name has
   * the same slug only the stored spelling changes. Otherwise the bundle is
   * merged into the one under the new slug (created if none) with the one
   * merge, votes and counters joining as on import, and the old slug is
   * removed afterwards; an interruption between the two leaves both, never
   * neither. Announces `{type: "bundle", reason: "rename"}` for the new slug
   * and `{reason: "delete"}` for the old one.
   *
   * @throws {BadRequest} for a bad slug; {NotFound} when none is
   *   stored; {Conflict} while a survey runs on either slug.
   */
  async rename(slug: string, body: RenameBody): Promise<RenameResult> {
    bundleSlug(slug);
    const target = slugify(body.track);
    this.#refuseWhileSurveyed(slug, "rename it");
    this.#refuseWhileSurveyed(target, "merge into it");
    const source = await this.#stored(slug);
    const { kv, bus } = this.#deps;
    const now = this.#deps.now().toISOString();
    if (target === slug) {
      const { head } = await updateBundle(kv, slug, (current) => {
        if (current === null) throw notFound(slug);
        const bundle = {
          ...current.bundle,
          meta: { ...current.bundle.meta, track: body.track, updated_at: now },
        };
        return { bundle, result: null };
      }, bundleCleanupWarnings(this.#deps.log));
      bus.emit({ type: "bundle", slug, track: head.track, reason: "rename" });
      return {
        slug,
        track: head.track,
        from: slug,
        merged: false,
        edges: head.edges,
        runs: head.runs,
        generation: head.generation,
      };
    }
    const { head, result: merged } = await updateBundle<boolean>(kv, target, (current) => {
      const m = mergeTables(current?.bundle ?? null, source, { now, track: body.track });
      return { bundle: m.merged, result: current !== null };
    }, bundleCleanupWarnings(this.#deps.log));
    await this.#remove(slug);
    bus.emit({ type: "bundle", slug: target, track: head.track, reason: "rename" });
    bus.emit({ type: "bundle", slug, track: source.meta.track, reason: "delete" });
    return {
      slug: target,
      track: head.track,
      from: slug,
      merged,
      edges: head.edges,
      runs: head.runs,
      generation: head.generation,
    };
  }

  /**
   * Deletes the bundle under `slug`. Announces `{type: "bundle", reason: "delete"}`.
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when none is
   *   stored; {Conflict} while a survey runs on it.
   */
  async delete(slug: string): Promise<{ status: "deleted"; slug: string }> {
    bundleSlug(slug);
    this.#refuseWhileSurveyed(slug, "delete it");
    const removed = await this.#remove(slug);
    if (removed === null) throw notFound(slug);
    this.#deps.bus.emit({ type: "bundle", slug, track: removed.track, reason: "delete" });
    return { status: "deleted", slug };
  }

  #refuseWhileSurveyed(slug: string, what: string): void {
    if (this.#survey.slug === slug) {
      throw new Conflict(`a survey is running on "${slug}"; stop it before you ${what}`);
    }
  }

  async #stored(slug: string): Promise<BundleTable> {
    const found = await readBundleTable(this.#deps.kv, bundleSlug(slug));
    if (found === null) throw notFound(slug);
    return found.bundle;
  }

  /** Removes the bundle under `slug`; its last head, or null when none was stored. */
  async #remove(slug: string): Promise<BundleHead | null> {
    const removed = await removeBundle(this.#deps.kv, slug);
    if (removed?.chunkError) {
      this.#deps.log.warn(
        "bundle store: deleting removed chunks failed (the start-up sweep will retry)",
        removed.chunkError,
      );
    }
    return removed?.head ?? null;
  }

  async #replaceAuthored(
    slug: string,
    edit: (doc: BundleTable) => BundleTable,
  ): Promise<BundleTable> {
    const now = this.#deps.now().toISOString();
    const { result } = await updateBundle<BundleTable>(this.#deps.kv, slug, (current) => {
      if (current === null) throw notFound(slug);
      const bundle = edit({ ...current.bundle, meta: { ...current.bundle.meta, updated_at: now } });
      return { bundle, result: bundle };
    }, bundleCleanupWarnings(this.#deps.log));
    this.#deps.bus.emit({ type: "bundle", slug, track: result.meta.track, reason: "authoring" });
    return result;
  }
}
